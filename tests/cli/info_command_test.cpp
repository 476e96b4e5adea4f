#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "gpuprof/trace/schema_version.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

std::string make_trace(const TemporaryFolder& folder, const std::string& name, std::int64_t dropped,
                       std::int64_t refused = 0) {
  const auto path = folder.file(name);
  trace::TraceWriter writer({.path = path});
  writer.set_meta("source_format", "collector");
  writer.set_meta("host_name", "node7");
  writer.set_meta("rank", "1");
  writer.set_meta("world_size", "2");
  writer.add(trace::DeviceRow{.id = 0, .name = "NVIDIA H200", .compute_major = 9, .compute_minor = 0, .sm_count = 132});
  writer.add(trace::KernelRow{.start_ns = 1'000, .end_ns = 3'000'000, .name = writer.intern("gemm")});
  writer.add(trace::ApiCallRow{.start_ns = 500, .end_ns = 900, .name = writer.intern("cudaLaunchKernel")});
  writer.set_stat({.name = "dropped_records", .value = dropped,
                   .severity = dropped ? trace::Severity::warning : trace::Severity::info});
  if (refused > 0) {
    writer.set_stat({.name = "buffer_requests_refused", .value = refused, .severity = trace::Severity::warning});
  }
  writer.finish();
  return path;
}

TEST(InfoCommand, DescribesATrace) {
  TemporaryFolder folder;
  const auto path = make_trace(folder, "t.sqlite", 0);
  const auto result = gpuprof({"info", path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto schema_line = "schema          " + std::to_string(trace::kSchemaMajor) + "." +
                           std::to_string(trace::kSchemaMinor) + " (gpuprof.trace)";
  const std::vector<std::string> expected_lines = {schema_line, "source          collector", "node7",
                               "rank 1 of 2", "time span       3.00 ms", "0: NVIDIA H200 (sm_90, 132 SMs)",
                               "kernels                     1", "api_calls                   1"};
  for (const auto& expected : expected_lines) {
    EXPECT_NE(result.out.find(expected), std::string::npos) << expected << "\n" << result.out;
  }
  EXPECT_EQ(result.out.find("WARNING"), std::string::npos);
}

TEST(InfoCommand, WarnsWhenRecordsWereDropped) {
  TemporaryFolder folder;
  const auto result = gpuprof({"info", make_trace(folder, "t.sqlite", 12)});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("WARNING: data was lost while recording (12 dropped records)"), std::string::npos)
      << result.out;
}

// A refused buffer request loses the records that needed it: loss, though nothing is called "dropped".
TEST(InfoCommand, WarnsWhenBufferRequestsWereRefused) {
  TemporaryFolder folder;
  const auto result = gpuprof({"info", make_trace(folder, "t.sqlite", 0, 3)});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("WARNING: data was lost while recording (3 refused buffer requests"), std::string::npos)
      << result.out;
}

TEST(InfoCommand, DescribesSeveralTraces) {
  TemporaryFolder folder;
  const auto result =
      gpuprof({"info", make_trace(folder, "a.sqlite", 0), make_trace(folder, "b.sqlite", 0)});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("a.sqlite"), std::string::npos);
  EXPECT_NE(result.out.find("b.sqlite"), std::string::npos);
}

TEST(InfoCommand, BadFilesAreRefusedWithExitCodeTwoAndLeftUntouched) {
  TemporaryFolder folder;
  write_file(folder.file("not.sqlite"), "this is plain text, not a database");
  write_file(folder.file("empty.sqlite"), "");
  const auto newer = make_trace(folder, "newer.sqlite", 0);
  sqlite3* db = nullptr;
  sqlite3_open(newer.c_str(), &db);
  sqlite3_exec(db, "PRAGMA user_version = 9000", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  const auto truncated = make_trace(folder, "truncated.sqlite", 0);
  std::filesystem::resize_file(truncated, 5000);
  sqlite3_open(folder.file("foreign.sqlite").c_str(), &db);
  sqlite3_exec(db, "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER)", nullptr, nullptr, nullptr);
  sqlite3_close(db);

  const std::vector<std::pair<std::string, std::string>> cases = {
      {folder.file("missing.sqlite"), "no such file"},
      // A folder is a job now (AJobFolderInTextAndJson); this one holds the bad files, and the first fails it.
      {folder.path().string(), "is empty"},
      {folder.file("not.sqlite"), "is not a SQLite trace file"},
      {folder.file("empty.sqlite"), "is empty"},
      {folder.file("foreign.sqlite"), "without the gpuprof trace schema"},
      {newer, "newer than this gpuprof reads"},
      {truncated, "is truncated"},
  };
  for (const auto& [file, problem] : cases) {
    const bool exists = std::filesystem::is_regular_file(file);
    const std::string before = exists ? read_file(file) : "";
    expect_bad_input(gpuprof({"info", file}), file, problem);
    if (exists) {
      EXPECT_EQ(read_file(file), before) << file;
    }
  }
}

TEST(InfoCommand, ImportsAKinetoTraceOnTheFly) {
  TemporaryFolder folder;
  const auto path = folder.file("worker0.pt.trace.json");
  write_file(path, R"({"schemaVersion": 1, "distributedInfo": {"rank": 3, "world_size": 8},
    "traceEvents": [
      {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce", "pid": 0, "tid": 7, "ts": 100.0, "dur": 20.5,
       "args": {"device": 0, "stream": 7, "correlation": 5}},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 95.0, "dur": 3.0,
       "args": {"correlation": 5}}]})");
  const std::string before = read_file(path);
  const auto result = gpuprof({"info", path});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find(path + "  (imported for this command)"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("source          kineto"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("rank 3 of 8"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("kernels                     1"), std::string::npos) << result.out;
  EXPECT_EQ(read_file(path), before);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder.path()), {}), 1) << "nothing written beside it";
}

TEST(InfoCommand, OneBadFileAmongGoodOnesFailsBeforePrinting) {
  TemporaryFolder folder;
  const auto result = gpuprof({"info", make_trace(folder, "a.sqlite", 0), folder.file("missing.sqlite")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_TRUE(result.out.empty()) << result.out;
}

// A job folder is its trace files, as report reads it; JSON for scripts carries the same facts.
TEST(InfoCommand, AJobFolderInTextAndJson) {
  TemporaryFolder folder;
  make_trace(folder, "rank0.sqlite", 0);
  make_trace(folder, "rank1.sqlite", 5, 2);
  const auto text = gpuprof({"info", folder.path().string()});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("rank0.sqlite"), std::string::npos);
  EXPECT_NE(text.out.find("rank1.sqlite"), std::string::npos);
  const auto json = gpuprof({"info", folder.path().string(), "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out.rfind("{\"format\":\"gpuprof.info/1\",\"traces\":[", 0), 0u) << json.out;
  EXPECT_NE(json.out.find("\"kernels\":1"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"recording_loss\":{\"dropped_records\":5,\"refused_buffer_requests\":2"),
            std::string::npos)
      << json.out;
  EXPECT_NE(json.out.find("\"name\":\"NVIDIA H200\""), std::string::npos);
  EXPECT_EQ(gpuprof({"info", folder.path().string(), "--format", "xml"}).exit_code, 2);
}

// Each stat is shown with what it counts, from the catalogue; a name this version does not know (a newer
// gpuprof's, another tool's) is shown too, said to be unknown, and still counts as lost when it says "dropped".
TEST(InfoCommand, DescribesEachStatAndKeepsUnknownOnes) {
  TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  {
    trace::TraceWriter writer({.path = path});
    writer.add(trace::KernelRow{.start_ns = 1'000, .end_ns = 3'000, .name = writer.intern("gemm")});
    writer.set_stat({.name = "dropped_records", .value = 0, .severity = trace::Severity::info});
    writer.set_stat({.name = "future.samples_dropped", .value = 7, .severity = trace::Severity::info});
    writer.finish();
  }
  const auto text = gpuprof({"info", path});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("info activity records CUPTI dropped because its buffers were full"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("future.samples_dropped"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("not in this gpuprof's catalogue of stats"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("WARNING: data was lost while recording (7 dropped records)"), std::string::npos)
      << text.out;
  const auto json = gpuprof({"info", path, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"severity\":\"info\",\"description\":\"activity records CUPTI dropped because its "
                          "buffers were full\",\"known\":true"),
            std::string::npos)
      << json.out;
  EXPECT_NE(json.out.find("\"name\":\"future.samples_dropped\",\"value\":7,\"severity\":\"info\",\"description\":"
                          "\"not in this gpuprof's catalogue"),
            std::string::npos)
      << json.out;
  EXPECT_NE(json.out.find("\"known\":false"), std::string::npos) << json.out;
}

}  // namespace
}  // namespace gpuprof::testing
