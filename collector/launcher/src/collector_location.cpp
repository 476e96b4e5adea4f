#include "gpuprof/launcher/collector_location.hpp"

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "gpuprof/launcher/collector_environment.hpp"

namespace gpuprof::launcher {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCollectorFileName = "libgpuprof_collector.so";

bool is_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

std::string from_environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

}  // namespace

std::string find_collector_library() {
  if (auto path = from_environment(environment::kCollectorPath); !path.empty()) return path;
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  std::vector<fs::path> candidates;
  if (!error) {
    candidates.push_back(executable.parent_path() / kCollectorFileName);
    candidates.push_back(executable.parent_path() / ".." / "lib" / kCollectorFileName);
    candidates.push_back(executable.parent_path() / ".." / "collector" / kCollectorFileName);
  }
#ifdef GPUPROF_COLLECTOR_BUILD_PATH
  candidates.emplace_back(GPUPROF_COLLECTOR_BUILD_PATH);
#endif
  for (const auto& candidate : candidates) {
    if (is_file(candidate)) return fs::absolute(candidate).lexically_normal().string();
  }
  return {};
}

}  // namespace gpuprof::launcher
