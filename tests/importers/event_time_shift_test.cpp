#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "event_time_shift.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "import_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

using importers::ShiftedRows;
using testing::TemporaryFolder;

// One row of every table a shift may move: host rows at 100 us, GPU rows at 200 us.
const char* kTrace = R"json({"traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 200, "dur": 1,
   "args": {"device": 0, "stream": 7, "correlation": 1}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 202, "dur": 1,
   "args": {"device": 0, "stream": 7, "bytes": 8}},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 204, "dur": 1,
   "args": {"device": 0, "stream": 7, "bytes": 8}},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "gpu range", "pid": 0, "tid": 7, "ts": 199, "dur": 10,
   "args": {"device": 0}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 100, "dur": 1,
   "args": {"correlation": 1}},
  {"ph": "X", "cat": "cuda_sync", "name": "cudaDeviceSynchronize", "pid": 1, "tid": 1, "ts": 102, "dur": 1},
  {"ph": "X", "cat": "user_annotation", "name": "host range", "pid": 1, "tid": 1, "ts": 99, "dur": 10}
]})json";

constexpr std::int64_t kShift = 5'000;

struct Times {
  std::vector<std::int64_t> kernels, memcpys, memsets, api_calls, syncs, ranges;
  friend bool operator==(const Times&, const Times&) = default;
};

Times starts(const trace::TraceModel& model) {
  return {model.kernels.start_ns, model.memcpys.start_ns, model.memsets.start_ns,
          model.api_calls.start_ns, model.syncs.start_ns, model.ranges.start_ns};
}

std::vector<std::int64_t> plus(std::vector<std::int64_t> times, std::int64_t shift) {
  for (auto& time : times) time += shift;
  return times;
}

// Imports kTrace, shifts the copy, and returns the model before and after, plus
// the shifted file read from its rows alone (column chunks deleted).
struct Shifted {
  trace::TraceModel before, after, from_rows;
};
Shifted shift(ShiftedRows rows) {
  TemporaryFolder folder;
  testing::write_file(folder.file("trace.json"), kTrace);
  const std::string imported = folder.file("imported.sqlite"), rows_only = folder.file("rows_only.sqlite");
  testing::import_file(folder.file("trace.json"), imported);
  Shifted result;
  result.before = trace::load_trace_model(imported);
  {
    sqlite::Database database(imported, sqlite::OpenMode::read_write);
    database.execute("BEGIN");
    importers::shift_event_times(database, kShift, rows);
    database.execute("COMMIT");
  }
  std::filesystem::copy_file(imported, rows_only);
  sqlite::Database(rows_only, sqlite::OpenMode::read_write).execute("DELETE FROM event_chunks");
  result.after = trace::load_trace_model(imported);
  result.from_rows = trace::load_trace_model(rows_only);
  return result;
}

TEST(EventTimeShift, EveryEventMovesEveryTable) {
  const auto shifted = shift(ShiftedRows::every_event);
  const Times before = starts(shifted.before);
  ASSERT_EQ(before.ranges.size(), 2u);
  const Times expected{plus(before.kernels, kShift), plus(before.memcpys, kShift), plus(before.memsets, kShift),
                       plus(before.api_calls, kShift), plus(before.syncs, kShift), plus(before.ranges, kShift)};
  EXPECT_EQ(starts(shifted.after), expected);
  EXPECT_EQ(starts(shifted.from_rows), expected);  // the column chunks were rewritten, not left unshifted
  EXPECT_EQ(shifted.after.kernels.end_ns, plus(shifted.before.kernels.end_ns, kShift));
}

TEST(EventTimeShift, GpuSideLeavesHostRowsOnTheHostClock) {
  const auto shifted = shift(ShiftedRows::gpu_side);
  const Times before = starts(shifted.before);
  Times expected = before;
  expected.kernels = plus(before.kernels, kShift);
  expected.memcpys = plus(before.memcpys, kShift);
  expected.memsets = plus(before.memsets, kShift);
  for (std::size_t i = 0; i < before.ranges.size(); ++i) {
    if (shifted.before.ranges.on_gpu[i] != 0) expected.ranges[i] += kShift;
  }
  ASSERT_NE(expected.ranges, before.ranges);  // one range is on the GPU
  ASSERT_EQ(expected.api_calls.size(), 1u);
  ASSERT_EQ(expected.syncs.size(), 1u);
  EXPECT_EQ(starts(shifted.after), expected);
  EXPECT_EQ(starts(shifted.from_rows), expected);
}

}  // namespace
}  // namespace gpuprof
