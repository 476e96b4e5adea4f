#include "fuzz_scratch.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace gpuprof::fuzz {
namespace {

namespace fs = std::filesystem;

fs::path scratch_root() {
  std::error_code error;
  if (fs::is_directory("/dev/shm", error)) return "/dev/shm";
  return fs::temp_directory_path();
}

}  // namespace

ScratchFolder::ScratchFolder() {
  path_ = scratch_root() / ("gpuprof-fuzz-" + std::to_string(::getpid()));
  fs::create_directories(path_);
}

ScratchFolder::~ScratchFolder() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

void write_input(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream stream(path, std::ios::binary | std::ios::trunc);
  stream.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!stream) throw std::runtime_error("fuzz harness cannot write " + path);
}

bool verbose() {
  static const bool enabled = std::getenv("GPUPROF_FUZZ_VERBOSE") != nullptr;
  return enabled;
}

}  // namespace gpuprof::fuzz
