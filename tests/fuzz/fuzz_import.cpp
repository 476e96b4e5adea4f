#include "fuzz_import.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::fuzz {
namespace {

namespace fs = std::filesystem;

// The importers fsync their output; on tmpfs that costs nothing, so prefer it
// to keep executions per second high.
fs::path scratch_root() {
  std::error_code error;
  if (fs::is_directory("/dev/shm", error)) return "/dev/shm";
  return fs::temp_directory_path();
}

// One folder per process (libFuzzer's -fork/-jobs run several), removed at exit.
class ScratchFolder {
 public:
  ScratchFolder() {
    path_ = scratch_root() / ("gpuprof-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  std::string file(const char* name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

void write_input(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream stream(path, std::ios::binary | std::ios::trunc);
  stream.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!stream) throw std::runtime_error("fuzz harness cannot write " + path);
}

bool verbose() {
  static const bool enabled = std::getenv("GPUPROF_FUZZ_VERBOSE") != nullptr;
  return enabled;
}

}  // namespace

int import_bytes(importers::SourceFormat format, const std::uint8_t* data, std::size_t size) {
  static const ScratchFolder folder;
  const std::string input = folder.file("input");
  const std::string output = folder.file("output.sqlite");
  write_input(input, data, size);
  try {
    importers::import_trace({.input = input, .output = output, .format = format, .overwrite = true,
                             .tool_version = "fuzz"});
  } catch (const TraceError& error) {
    // Rejecting malformed input with a TraceError is the contract; not a finding.
    // GPUPROF_FUZZ_VERBOSE shows why, to check that seeds import cleanly.
    if (verbose()) std::fprintf(stderr, "TraceError: %s\n", error.what());
  }
  std::error_code ignored;
  fs::remove(output, ignored);
  return 0;
}

}  // namespace gpuprof::fuzz
