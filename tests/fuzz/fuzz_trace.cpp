// The trace loader and everything after it: the fuzz bytes as a gpuprof trace
// file through the analyses, the report and comparison in every format and the
// Chrome trace export, as `report`, `compare` and `export` run them. A
// TraceError is the expected answer to a damaged file; anything else escaping,
// a crash, a sanitizer report or a timeout is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "every_output.hpp"
#include "fuzz_scratch.hpp"
#include "gpuprof/trace/trace_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gpuprof::fuzz::ScratchFolder folder;
  const std::string input = folder.file("input.sqlite");
  gpuprof::fuzz::write_input(input, data, size);
  try {
    gpuprof::testing::run_every_output(input, folder.path().string());
  } catch (const gpuprof::TraceError& error) {
    if (gpuprof::fuzz::verbose()) std::fprintf(stderr, "TraceError: %s\n", error.what());
  }
  return 0;
}
