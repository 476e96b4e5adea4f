#pragma once

// What every fuzz target needs around the code under test: a private scratch
// folder for the input file and outputs, and a switch to print why an input
// was rejected.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace gpuprof::fuzz {

// One folder per process (libFuzzer's -fork/-jobs run several), under /dev/shm
// when it exists (the writers fsync; on tmpfs that costs nothing), removed at exit.
class ScratchFolder {
 public:
  ScratchFolder();
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string file(const char* name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// Writes the fuzz bytes to `path`.
void write_input(const std::string& path, const std::uint8_t* data, std::size_t size);

// GPUPROF_FUZZ_VERBOSE is set: print each rejected input's TraceError, to check
// that seeds are accepted.
bool verbose();

}  // namespace gpuprof::fuzz
