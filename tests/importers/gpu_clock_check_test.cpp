#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gpuprof/importers/gpu_clock_check.hpp"
#include "gpuprof/trace/chunk_guards.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "import_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

using testing::TemporaryFolder;

constexpr std::int64_t kSecond = 1'000'000'000;
constexpr std::int64_t kDay = 86'400 * kSecond;
// Both fixtures launch their kernel 100 ns after the launch call starts
// (nvprof: cudaLaunchKernel at 4900, kernel at 5000; nsys: 900 and 1000).
constexpr std::int64_t kFixtureDelay = 100;
// Moves every time far from 0, so that a GPU clock shifted back stays positive.
constexpr std::int64_t kBase = 1'000'000'000 * kSecond;

std::string fixture(const char* name) {
  return testing::read_file(std::string(GPUPROF_SOURCE_DIR "/tests/importers/data/") + name);
}

// SQL moving every host table by kBase and every GPU table by kBase + gpu_shift.
std::string shift_sql(const std::vector<const char*>& host, const std::vector<const char*>& gpu,
                      std::int64_t gpu_shift) {
  std::string sql;
  const auto move = [&](const char* table, std::int64_t by) {
    sql += std::string("UPDATE ") + table + " SET start = start + " + std::to_string(by) + ", end = end + " +
           std::to_string(by) + ";";
  };
  for (const char* table : host) move(table, kBase);
  for (const char* table : gpu) move(table, kBase + gpu_shift);
  return sql;
}

struct Imported {
  importers::ImportSummary summary;
  trace::TraceModel model;
};

Imported import_nvprof(TemporaryFolder& folder, std::int64_t gpu_shift) {
  const std::string input = folder.file("shifted.nvvp");
  const auto shift = shift_sql({"CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"},
                               {"CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                "CUPTI_ACTIVITY_KIND_MEMCPY2", "CUPTI_ACTIVITY_KIND_MEMSET"},
                               gpu_shift);
  testing::write_sqlite_file(input, fixture("nvprof_database.sql") + shift);
  Imported result;
  result.summary = testing::import_file(input, folder.file("shifted.sqlite"));
  result.model = trace::load_trace_model(folder.file("shifted.sqlite"));
  return result;
}

Imported import_nsys(TemporaryFolder& folder, std::int64_t gpu_shift) {
  const std::string input = folder.file("shifted.nsys.sqlite");
  testing::write_sqlite_file(
      input, fixture("nsys_export.sql") +
                 shift_sql({"CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS"},
                           {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"},
                           gpu_shift));
  Imported result;
  result.summary = testing::import_file(input, folder.file("shifted.sqlite"));
  result.model = trace::load_trace_model(folder.file("shifted.sqlite"));
  return result;
}

// A launch call at 10 us and its kernel `gpu_shift_ns` later than 12 us, in microseconds.
Imported import_kineto(TemporaryFolder& folder, std::int64_t gpu_shift_ns) {
  const std::int64_t host_us = kBase / 1000 + 10;
  const std::int64_t gpu_us = kBase / 1000 + 12 + gpu_shift_ns / 1000;
  const std::string input = folder.file("shifted.json");
  testing::write_file(input, R"json({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": )json" +
                                 std::to_string(host_us) + R"json(, "dur": 5, "args": {"correlation": 7}},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": )json" +
                                 std::to_string(gpu_us) + R"json(, "dur": 2,
     "args": {"device": 0, "stream": 7, "correlation": 7}}]})json");
  Imported result;
  result.summary = testing::import_file(input, folder.file("shifted.sqlite"));
  result.model = trace::load_trace_model(folder.file("shifted.sqlite"));
  return result;
}

// After alignment the kernel starts exactly when its launch call does (the
// smallest delay becomes 0) and the trace says by how much it was moved.
void expect_aligned(const Imported& imported, std::int64_t expected_shift) {
  EXPECT_EQ(imported.summary.clock.shift_ns, expected_shift);
  EXPECT_EQ(imported.model.meta.at("gpu_clock_shift_ns"), std::to_string(expected_shift));
  EXPECT_FALSE(imported.model.meta.at("gpu_clock_shift_reason").empty());
  ASSERT_EQ(imported.model.kernels.size(), 1u);
  const auto kernel_start = imported.model.kernels.start_ns[0];
  bool launch_found = false;
  for (std::size_t i = 0; i < imported.model.api_calls.size(); ++i) {
    if (imported.model.api_calls.correlation_id[i] != imported.model.kernels.correlation_id[0]) continue;
    EXPECT_EQ(kernel_start, imported.model.api_calls.start_ns[i]);
    launch_found = true;
  }
  EXPECT_TRUE(launch_found);
  EXPECT_LE(std::stoll(imported.model.meta.at("start_ns")), kernel_start);
  bool stat_found = false;
  for (const auto& stat : imported.model.stats) {
    if (stat.name == "import.gpu_clock_shift_ns") stat_found = stat.value == expected_shift;
  }
  EXPECT_TRUE(stat_found);
}

void expect_untouched(const Imported& imported) {
  EXPECT_EQ(imported.summary.clock.shift_ns, 0);
  EXPECT_EQ(imported.summary.clock.linked_launches, 1);
  EXPECT_EQ(imported.model.meta.count("gpu_clock_shift_ns"), 0u);
}

TEST(GpuClockCheck, NvprofGpuClockSecondsEarlyIsMovedOntoTheHostClock) {
  TemporaryFolder folder;
  expect_aligned(import_nvprof(folder, -5 * kSecond), 5 * kSecond - kFixtureDelay);
}

TEST(GpuClockCheck, NvprofGpuClockDaysLateIsMovedOntoTheHostClock) {
  TemporaryFolder folder;
  expect_aligned(import_nvprof(folder, 3 * kDay), -(3 * kDay + kFixtureDelay));
}

TEST(GpuClockCheck, NvprofGpuClockDaysEarlyIsMovedOntoTheHostClock) {
  TemporaryFolder folder;
  expect_aligned(import_nvprof(folder, -22 * kDay), 22 * kDay - kFixtureDelay);
}

TEST(GpuClockCheck, NsysGpuClockSecondsEarlyIsMovedOntoTheHostClock) {
  TemporaryFolder folder;
  expect_aligned(import_nsys(folder, -2 * kSecond), 2 * kSecond - kFixtureDelay);
}

TEST(GpuClockCheck, NsysGpuClockDaysLateIsMovedOntoTheHostClock) {
  TemporaryFolder folder;
  expect_aligned(import_nsys(folder, 4 * kDay), -(4 * kDay + kFixtureDelay));
}

TEST(GpuClockCheck, KinetoGpuClockSecondsEarlyIsMovedOntoTheHostClock) {
  TemporaryFolder folder;
  expect_aligned(import_kineto(folder, -7 * kSecond), 7 * kSecond - 2000);
}

TEST(GpuClockCheck, KinetoGpuClockDaysLateIsMovedOntoTheHostClock) {
  TemporaryFolder folder;
  expect_aligned(import_kineto(folder, 2 * kDay), -(2 * kDay + 2000));
}

// Only the kernel is days late, the copies are not: moving the GPU side would push
// the copies before 0, so the trace stays as recorded and says why.
TEST(GpuClockCheck, ShiftOutOfRangeIsRefusedAndCounted) {
  TemporaryFolder folder;
  const std::string input = folder.file("odd.nvvp");
  testing::write_sqlite_file(input, fixture("nvprof_database.sql") +
                                        "UPDATE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL SET start = start + " +
                                        std::to_string(3 * kDay) + ", end = end + " + std::to_string(3 * kDay) + ";");
  const auto summary = testing::import_file(input, folder.file("odd.sqlite"));
  EXPECT_EQ(summary.clock.shift_ns, 0);
  EXPECT_FALSE(summary.clock.reason.empty());
  const auto model = trace::load_trace_model(folder.file("odd.sqlite"));
  EXPECT_EQ(model.meta.count("gpu_clock_shift_ns"), 0u);
  EXPECT_EQ(model.kernels.start_ns[0], 5000 + 3 * kDay);
  bool counted = false;
  for (const auto& stat : model.stats) counted |= stat.name == "import.gpu_clock_shift_refused" && stat.value == 1;
  EXPECT_TRUE(counted);
}

// After a move the times are checked: a negative median launch delay, or GPU work stretched past its host
// and past its own recorded span, is refused (the refused move is rolled back: import.gpu_clock_move_refused).
TEST(GpuClockCheck, ImplausibleMovesAreNamed) {
  TemporaryFolder folder;
  import_kineto(folder, -7 * kSecond);  // moved: the kernel starts 0 ns after its launch
  sqlite::Database trace(folder.file("shifted.sqlite"), sqlite::OpenMode::read_write);
  // As moved: the 2 us kernel within its 5 us launch call.
  EXPECT_EQ(importers::implausible_clock_move(trace, 2000), std::nullopt);
  // A 10 s kernel outlasts the host's 5 us: plausible only if it lasted that long as recorded.
  trace.execute("UPDATE kernels SET end_ns = start_ns + 10000000000");
  EXPECT_EQ(importers::implausible_clock_move(trace, 10 * kSecond), std::nullopt);
  const auto stretched = importers::implausible_clock_move(trace, 2000);
  ASSERT_TRUE(stretched.has_value());
  EXPECT_NE(stretched->find("more than the host's"), std::string::npos) << *stretched;
  // Work before its launch call.
  trace.execute("UPDATE kernels SET start_ns = start_ns - 1000000, end_ns = start_ns + 1000");
  const auto early = importers::implausible_clock_move(trace, 10 * kSecond);
  ASSERT_TRUE(early.has_value());
  EXPECT_NE(early->find("median launch delay"), std::string::npos) << *early;
}

TEST(GpuClockCheck, AgreeingClocksAreLeftAlone) {
  TemporaryFolder nvprof, nsys, kineto;
  expect_untouched(import_nvprof(nvprof, 0));
  expect_untouched(import_nsys(nsys, 0));
  expect_untouched(import_kineto(kineto, 0));
  // Under a second of launch delay is a busy queue, not another clock.
  TemporaryFolder busy;
  expect_untouched(import_nvprof(busy, kSecond / 2));
}

// The shift edits rows after the writer finished: the column chunks are
// rewritten from the shifted rows (the model read from them equals the one read
// from the rows alone) and the file keeps every chunk guard.
TEST(GpuClockCheck, ShiftedTraceKeepsTrueChunksAndTheChunkGuards) {
  TemporaryFolder folder;
  const auto imported = import_nvprof(folder, 3 * kDay);
  ASSERT_NE(imported.summary.clock.shift_ns, 0);
  const auto shifted = folder.file("shifted.sqlite"), rows_only = folder.file("rows_only.sqlite");
  std::filesystem::copy_file(shifted, rows_only);
  {
    sqlite::Database database(shifted, sqlite::OpenMode::read_only);
    EXPECT_GT(database.query_int("SELECT count(*) FROM event_chunks").value_or(0), 0);
    for (const auto& guard : trace::chunk_guard_triggers()) {
      sqlite::Statement found(database, "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ? AND sql = ?");
      found.bind(1, std::string_view(guard.name));
      found.bind(2, std::string_view(guard.sql));
      EXPECT_TRUE(found.step()) << guard.name;
    }
  }
  sqlite::Database(rows_only, sqlite::OpenMode::read_write).execute("DELETE FROM event_chunks");
  const auto from_rows = trace::load_trace_model(rows_only);
  EXPECT_EQ(imported.model.kernels.start_ns, from_rows.kernels.start_ns);
  EXPECT_EQ(imported.model.kernels.end_ns, from_rows.kernels.end_ns);
  EXPECT_EQ(imported.model.memcpys.start_ns, from_rows.memcpys.start_ns);
  EXPECT_EQ(imported.model.api_calls.start_ns, from_rows.api_calls.start_ns);
  for (const auto& stat : imported.model.stats) EXPECT_NE(stat.name.rfind("load.chunks.", 0), 0U) << stat.name;
}

}  // namespace
}  // namespace gpuprof
