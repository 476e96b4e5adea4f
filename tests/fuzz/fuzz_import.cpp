#include "fuzz_import.hpp"

#include <cstdio>
#include <filesystem>
#include <string>

#include "fuzz_scratch.hpp"
#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::fuzz {

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
  std::filesystem::remove(output, ignored);
  return 0;
}

}  // namespace gpuprof::fuzz
