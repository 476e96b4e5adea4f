#include "temporary_folder.hpp"

#include <unistd.h>

#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace gpuprof::testing {

TemporaryFolder::TemporaryFolder() {
  std::random_device seed;
  path_ = std::filesystem::temp_directory_path() /
          ("gpuprof-test-" + std::to_string(::getpid()) + "-" + std::to_string(seed()));
  std::filesystem::create_directories(path_);
}

TemporaryFolder::~TemporaryFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

void write_file(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::filesystem::path external_data_dir() {
  std::filesystem::path folder = GPUPROF_EXTERNAL_DATA_DIR;
  std::error_code ignored;
  return std::filesystem::is_directory(folder, ignored) ? folder : std::filesystem::path();
}

}  // namespace gpuprof::testing
