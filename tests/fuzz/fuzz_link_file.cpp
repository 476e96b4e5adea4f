// The link-file parser (issue 40): the fuzz bytes as an all_reduce_perf output
// and as an all-reduce look-up table, parsed from memory and read from a file
// (the size and line limits), and every table that parses fitted into the
// all-reduce curve that `predict` uses. A TraceError is the expected answer to
// a bad file; anything else (a crash, a sanitizer report, another exception,
// a negative or non-finite time from an accepted table) is a finding.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_scratch.hpp"
#include "gpuprof/predict/allreduce_curve.hpp"
#include "gpuprof/predict/nccl_tests_reader.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace {

using gpuprof::predict::AllReduceTable;

// An accepted table predicts a finite, non-negative time at every size.
void check_curve(const AllReduceTable& table) {
  const gpuprof::predict::AllReduceCurve curve({table});
  for (const std::int64_t bytes : {std::int64_t{1}, std::int64_t{1} << 20, std::int64_t{1} << 40}) {
    for (const std::int32_t gpus : {2, table.gpus}) {
      const double time = curve.time_ns(bytes, gpus);
      if (!std::isfinite(time) || time < 0) {
        std::fprintf(stderr, "accepted table gives time %g ns for %lld bytes on %d GPUs\n", time,
                     static_cast<long long>(bytes), gpus);
        std::abort();
      }
    }
  }
}

template <typename Parse>
void try_parse(Parse&& parse) {
  try {
    check_curve(parse());
  } catch (const gpuprof::TraceError& error) {
    if (gpuprof::fuzz::verbose()) std::fprintf(stderr, "TraceError: %s\n", error.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gpuprof::fuzz::ScratchFolder scratch;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The look-up table's GPU count comes from its name: the first byte picks one, sane or not.
  static const char* const kNames[] = {"AR_LUT", "AR_GPU8_1M_LUT", "AR_GPU99999999999_LUT", "AR_GPU2_1M_LUT"};
  const std::string name = kNames[size == 0 ? 0 : data[0] % std::size(kNames)];
  try_parse([&] { return gpuprof::predict::parse_nccl_tests(text, "fuzz.log"); });
  try_parse([&] { return gpuprof::predict::parse_allreduce_lut(text, name); });
  const auto file = scratch.file(name.c_str());
  gpuprof::fuzz::write_input(file, data, size);
  try_parse([&] { return gpuprof::predict::read_allreduce_file(file); });
  return 0;
}
