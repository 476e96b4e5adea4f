// Idle under recorded Python frames (Kineto `python_function` events, with_stack=True) is the host's doing:
// the import keeps them as host ranges, so the idle time they cover is host_bound, not unrecorded (issue 39).
#include <gtest/gtest.h>

#include <string>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::idle {
namespace {

// Kernel a [1000, 2000) us launched at 900, kernel b [5000, 6000) launched by a call at 4000..4100, both from
// thread 7; a Python frame of thread 7 from 2100 to 3900. In the gap [2000, 5000): launch_latency 1000 us,
// host_bound 1800 us (the frame), unrecorded 200 us.
constexpr const char* kTrace = R"json({"traceEvents": [
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 7, "ts": 900, "dur": 50,
   "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "a", "pid": 0, "tid": 9, "ts": 1000, "dur": 1000,
   "args": {"device": 0, "stream": 9, "correlation": 1}},
  {"ph": "X", "cat": "python_function", "name": "train.py(10): compute_loss", "pid": 1, "tid": 7, "ts": 2100,
   "dur": 1800, "args": {"Python id": 3, "Python parent id": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 7, "ts": 4000, "dur": 100,
   "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "b", "pid": 0, "tid": 9, "ts": 5000, "dur": 1000,
   "args": {"device": 0, "stream": 9, "correlation": 2}}]})json";

constexpr std::size_t at(IdleCause cause) { return static_cast<std::size_t>(cause); }
constexpr std::int64_t kUs = 1000;

trace::TraceModel imported(const gpuprof::testing::TemporaryFolder& folder) {
  const auto input = folder.file("python.json");
  gpuprof::testing::write_file(input, kTrace);
  importers::ImportOptions options;
  options.input = input;
  options.output = folder.file("trace.sqlite");
  importers::import_trace(options);
  return trace::load_trace_model(options.output);
}

TEST(IdleUnderPythonFrames, PythonFunctionEventsAreHostRanges) {
  gpuprof::testing::TemporaryFolder folder;
  const auto model = imported(folder);
  ASSERT_EQ(model.ranges.size(), 1U);
  EXPECT_EQ(model.string(model.ranges.name[0]), "train.py(10): compute_loss");
  EXPECT_EQ(model.string(model.ranges.domain[0]), "python_function");
  EXPECT_EQ(model.ranges.on_gpu[0], 0);
  EXPECT_EQ(model.ranges.thread_id[0], 7);
  EXPECT_EQ(model.ranges.end_ns[0] - model.ranges.start_ns[0], 1800 * kUs);
}

TEST(IdleUnderPythonFrames, IdleUnderAFrameIsHostBound) {
  gpuprof::testing::TemporaryFolder folder;
  const auto rank = analysis::analyze_rank(imported(folder), {});
  ASSERT_EQ(rank.devices.size(), 1U);
  const auto& total = rank.devices[0].total;
  EXPECT_EQ(total.idle_in_steps_ns, 3000 * kUs);
  CauseTimes expected{};
  expected[at(IdleCause::launch_latency)] = 1000 * kUs;
  expected[at(IdleCause::host_bound)] = 1800 * kUs;
  expected[at(IdleCause::unrecorded)] = 200 * kUs;
  EXPECT_EQ(total.idle_in_steps_causes.cause_ns, expected);
}

}  // namespace
}  // namespace gpuprof::idle
