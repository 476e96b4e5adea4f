#include <gtest/gtest.h>

#include <map>
#include <optional>

#include "gpuprof/trace/trace_model.hpp"
#include "import_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

// The fixture is a file so the fuzz targets start from it too.
std::string nvprof_database_sql() {
  return testing::read_file(GPUPROF_SOURCE_DIR "/tests/importers/data/nvprof_database.sql");
}

std::optional<std::int64_t> stat_value(const trace::TraceModel& model, const std::string& name) {
  for (const auto& stat : model.stats) {
    if (stat.name == name) return stat.value;
  }
  return std::nullopt;
}

// Imports the documented fixture plus `extra_sql`.
trace::TraceModel import_with(testing::TemporaryFolder& folder, const std::string& extra_sql) {
  const std::string input = folder.file("run.nvvp");
  testing::write_sqlite_file(input, nvprof_database_sql() + extra_sql);
  testing::import_file(input, folder.file("out.sqlite"));
  return trace::load_trace_model(folder.file("out.sqlite"));
}

TEST(NvprofImport, WritesExactRowsFromDocumentedSchema) {
  testing::TemporaryFolder folder;
  const std::string input = folder.file("run.nvvp");
  testing::write_sqlite_file(input, nvprof_database_sql());
  const auto summary = testing::import_file(input, folder.file("out.sqlite"));
  EXPECT_EQ(summary.format, importers::SourceFormat::nvprof);
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  EXPECT_EQ(model.meta.at("source_format"), "nvprof");

  ASSERT_EQ(model.devices.size(), 1u);
  EXPECT_EQ(model.devices[0].name, "Tesla V100-SXM2-16GB");
  EXPECT_EQ(model.devices[0].sm_count, 80);
  EXPECT_EQ(model.devices[0].memory_bandwidth_bps, 898048000000LL);

  ASSERT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.string(model.kernels.name[0]), "kernel(float*)");  // nvprof stores CUPTI's mangled name
  EXPECT_EQ(model.string(model.kernels.mangled_name[0]), "_Z6kernelPf");
  EXPECT_EQ(model.kernels.start_ns[0], 5000);
  EXPECT_EQ(model.kernels.dynamic_shared_bytes[0], 128);

  ASSERT_EQ(model.memcpys.size(), 2u);
  EXPECT_EQ(model.memcpys.copy_kind[0], trace::CopyKind::host_to_device);
  EXPECT_EQ(model.memcpys.src_memory_kind[0], trace::MemoryKind::pinned);
  EXPECT_EQ(model.memcpys.dst_memory_kind[0], trace::MemoryKind::device);
  EXPECT_EQ(model.memcpys.copy_kind[1], trace::CopyKind::peer_to_peer);
  EXPECT_EQ(model.memcpys.device[1], 1);
  EXPECT_EQ(model.memcpys.src_device[1], 1);
  EXPECT_EQ(model.memcpys.dst_device[1], 0);
  EXPECT_EQ(model.memcpys.bytes[1], 2048);

  ASSERT_EQ(model.memsets.size(), 1u);
  ASSERT_EQ(model.api_calls.size(), 2u);
  EXPECT_EQ(model.string(model.api_calls.name[0]), "cbid:9999");  // beyond every CUPTI header: kept, counted
  EXPECT_EQ(model.string(model.api_calls.name[1]), "cudaLaunchKernel");
  EXPECT_EQ(stat_value(model, "import.nvprof.unknown_callback_ids"), 1);
  EXPECT_EQ(model.api_calls.process_id[1], 1234);

  ASSERT_EQ(model.syncs.size(), 1u);
  EXPECT_EQ(model.syncs.type[0], trace::SyncType::event);
  EXPECT_EQ(model.syncs.event[0], 3);
  EXPECT_EQ(model.syncs.stream[0], trace::kUnknown);
}

TEST(NvprofImport, ApiCallsAreNamedFromTheCuptiHeaders) {
  testing::TemporaryFolder folder;
  // Runtime 13 and 41, driver 243: ids of the CUDA 7-era calls the MAGMA files hold.
  const auto model = import_with(folder, R"sql(
    INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (3, 13, 200, 210, 1234, 1235, 20, 0),
      (4, 41, 300, 310, 1234, 1235, 21, 0);
    CREATE TABLE CUPTI_ACTIVITY_KIND_DRIVER (_id_ INTEGER PRIMARY KEY, cbid INTEGER, start INTEGER, end INTEGER,
      processId INTEGER, threadId INTEGER, correlationId INTEGER, returnValue INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_DRIVER VALUES (1, 243, 400, 420, 1234, 1235, 22, 0);)sql");
  std::map<std::string, trace::ApiKind> names;
  for (std::size_t i = 0; i < model.api_calls.size(); ++i) {
    names[std::string(model.string(model.api_calls.name[i]))] = model.api_calls.kind[i];
  }
  EXPECT_EQ(names.count("cudaLaunch"), 1u);
  EXPECT_EQ(names.count("cudaMemcpyAsync"), 1u);
  ASSERT_EQ(names.count("cuMemAlloc_v2"), 1u);
  EXPECT_EQ(names["cuMemAlloc_v2"], trace::ApiKind::driver);
  EXPECT_EQ(model.meta.at("pid"), "1234");  // one process: its pid identifies the file among rank files
}

TEST(NvprofImport, RowsWithoutUsableTimesAreDroppedAndCounted) {
  testing::TemporaryFolder folder;
  const auto model = import_with(folder, R"sql(
    INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL VALUES (2, 0, 6000, 0, 1, 7, 14, 1, 1, 1, 1, 1, 1, 1, 16, 0, 0),
      (3, 5000, 0, 0, 1, 7, 15, 1, 1, 1, 1, 1, 1, 1, 16, 0, 0),
      (4, 6000, 5000, 0, 1, 7, 16, 1, 1, 1, 1, 1, 1, 1, 16, 0, 0),
      (5, NULL, 6000, 0, 1, 7, 17, 1, 1, 1, 1, 1, 1, 1, 16, 0, 0);
    INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (2, 1, 2, 3, 0, 1024, 0, 0, 0, 1, 7, 18, 0);
    INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (3, 211, 4900, 0, 1234, 1235, 19, 0);
    INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (2, 1, 9000, 8000, 20, 1, 7, 3);)sql");
  EXPECT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.memcpys.size(), 2u);
  EXPECT_EQ(model.api_calls.size(), 2u);
  EXPECT_EQ(model.syncs.size(), 1u);
  EXPECT_EQ(stat_value(model, "import.nvprof.invalid_times.kernels"), 4);
  EXPECT_EQ(stat_value(model, "import.nvprof.invalid_times.memcpys"), 1);
  EXPECT_EQ(stat_value(model, "import.nvprof.invalid_times.api_calls"), 1);
  EXPECT_EQ(stat_value(model, "import.nvprof.invalid_times.syncs"), 1);
  EXPECT_EQ(model.meta.at("start_ns"), "100");  // the dropped rows do not stretch the span back to 0
}

// objectId blobs: {pid 1234, tid 1235}, {pid 1234, tid 1236}, {pid 1234, tid 1237}, and a
// process marker's 12 bytes {pid 1234, 0, 0} as nvprof stores them.
constexpr const char* kMarkerTables = R"sql(
  INSERT INTO StringTable VALUES (3, 'step 1'), (4, 'forward'), (5, 'load'), (6, 'my_domain'), (7, 'mark'),
    (8, 'short blob');
  CREATE TABLE CUPTI_ACTIVITY_KIND_MARKER (_id_ INTEGER PRIMARY KEY, flags INT, timestamp INT, id INT,
    objectKind INT, objectId BLOB, name INT, domain INT);
  CREATE TABLE CUPTI_ACTIVITY_KIND_MARKER_DATA (_id_ INTEGER PRIMARY KEY, flags INT, id INT, payloadKind INT,
    payload BLOB, color INT, category INT);
  INSERT INTO CUPTI_ACTIVITY_KIND_MARKER_DATA VALUES (1, 2, 1, 0, X'00', 255, 7);
  INSERT INTO CUPTI_ACTIVITY_KIND_MARKER VALUES
    (1, 2, 1000, 1, 2, X'D2040000D3040000', 3, 0),
    (2, 2, 1100, 2, 2, X'D2040000D3040000', 4, 6),
    (3, 4, 1500, 0, 2, X'D2040000D3040000', 0, 0),
    (4, 2, 1200, 3, 1, X'D20400000000000000000000', 5, 0),
    (5, 1, 1300, 4, 2, X'D2040000D3040000', 7, 0),
    (6, 4, 1900, 1, 2, X'D2040000D3040000', 0, 0),
    (7, 4, 2500, 3, 2, X'D2040000D4040000', 0, 0),
    (8, 4, 2600, 99, 2, X'D2040000D5040000', 0, 0),
    (9, 2, 2700, 5, 2, X'D2040000D3040000', 4, 0),
    (10, 2, 0, 6, 2, X'D2040000D3040000', 4, 0),
    (11, 2, 2800, 7, 2, X'D204', 8, 0),
    (12, 4, 2900, 7, 9, X'', 0, 0);)sql";

TEST(NvprofImport, NvtxMarkersArePairedIntoRanges) {
  testing::TemporaryFolder folder;
  const auto model = import_with(folder, kMarkerTables);
  std::map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < model.ranges.size(); ++i) by_name[std::string(model.string(model.ranges.name[i]))] = i;
  ASSERT_EQ(by_name.size(), 4u);
  // Push/pop: the pop (id 0) closes the innermost range of its thread.
  const auto forward = by_name.at("forward");
  EXPECT_EQ(model.ranges.start_ns[forward], 1100);
  EXPECT_EQ(model.ranges.end_ns[forward], 1500);
  EXPECT_EQ(model.ranges.thread_id[forward], 1235);
  ASSERT_NE(model.ranges.domain[forward], trace::kNoString);
  EXPECT_EQ(model.string(model.ranges.domain[forward]), "my_domain");
  const auto step = by_name.at("step 1");
  EXPECT_EQ(model.ranges.start_ns[step], 1000);
  EXPECT_EQ(model.ranges.end_ns[step], 1900);
  EXPECT_EQ(model.ranges.category[step], 7);
  EXPECT_EQ(model.ranges.domain[step], trace::kNoString);
  // Start/end by id, ended on another thread; a process marker has no thread.
  const auto load = by_name.at("load");
  EXPECT_EQ(model.ranges.start_ns[load], 1200);
  EXPECT_EQ(model.ranges.end_ns[load], 2500);
  EXPECT_EQ(model.ranges.process_id[load], 1234);
  EXPECT_EQ(model.ranges.thread_id[load], trace::kUnknown);
  EXPECT_EQ(stat_value(model, "import.nvprof.nvtx_marks"), 1);
  EXPECT_EQ(stat_value(model, "import.nvprof.unmatched_nvtx_ends"), 1);
  // A thread marker with a blob too short for its ids has no owner and pairs by id only.
  const auto short_blob = by_name.at("short blob");
  EXPECT_EQ(model.ranges.end_ns[short_blob], 2900);
  EXPECT_EQ(model.ranges.process_id[short_blob], trace::kUnknown);
  EXPECT_EQ(stat_value(model, "import.nvprof.unclosed_nvtx_ranges"), 1);
  EXPECT_EQ(stat_value(model, "import.nvprof.invalid_times.nvtx_markers"), 1);
}

}  // namespace
}  // namespace gpuprof
