// Memory events from the importers: Kineto "[memory]" instant events (2021
// format without a category, current one as cpu_instant_event) and Nsight
// Systems CUDA_GPU_MEMORY_USAGE_EVENTS, with every bad field counted.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "gpuprof/trace/trace_model.hpp"
#include "import_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

using trace::MemoryKind;
using trace::MemoryOperation;

std::optional<std::int64_t> stat_value(const trace::TraceModel& model, const std::string& name) {
  for (const auto& stat : model.stats) {
    if (stat.name == name) return stat.value;
  }
  return std::nullopt;
}

trace::TraceModel import_text(testing::TemporaryFolder& folder, const std::string& name, const std::string& text) {
  const std::string input = folder.file(name);
  testing::write_file(input, text);
  testing::import_file(input, folder.file("out.sqlite"));
  return trace::load_trace_model(folder.file("out.sqlite"));
}

TEST(KinetoMemoryImport, CurrentFormatKeepsAddressesAndTotalsOnTheTimeBase) {
  testing::TemporaryFolder folder;
  const auto model = import_text(folder, "trace.json", R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 100, "dur": 5,
     "args": {"device": 0, "stream": 7}},
    {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 9, "tid": 9, "ts": 90,
     "args": {"Total Reserved": 2097152, "Total Allocated": 1536, "Bytes": 512, "Addr": 140000000000,
              "Device Type": 1, "Device Id": 0}},
    {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 9, "tid": 9, "ts": 120.5,
     "args": {"Total Allocated": 1024, "Bytes": -512, "Addr": 140000000000, "Device Type": 1, "Device Id": 0}},
    {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 9, "tid": 9, "ts": 95,
     "args": {"Bytes": 64, "Addr": 5, "Device Type": 0, "Device Id": -1}}
  ], "baseTimeNanoseconds": 1000000000})json");
  const auto& m = model.memory_events;
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m.time_ns[0], 1000000000 + 90000);
  EXPECT_EQ(m.time_ns[1], 1000000000 + 120500);
  EXPECT_EQ(m.operation[0], MemoryOperation::alloc);
  EXPECT_EQ(m.operation[1], MemoryOperation::free);
  EXPECT_EQ(m.bytes[1], 512);
  EXPECT_EQ(m.address[0], 140000000000);
  EXPECT_EQ(m.allocated_after[0], 1536);
  EXPECT_EQ(m.allocated_after[1], 1024);
  EXPECT_EQ(m.memory_kind[0], MemoryKind::device);
  EXPECT_EQ(m.device[0], 0);
  EXPECT_EQ(stat_value(model, "import.kineto.memory_host_events"), 1);
  EXPECT_EQ(stat_value(model, "import.rows.memory_events"), 2);
  // The memory events are part of the trace's span.
  EXPECT_EQ(model.meta.at("start_ns"), std::to_string(1000000000 + 90000));
}

TEST(KinetoMemoryImport, The2021FormatHasNoCategoryAddressOrTotal) {
  testing::TemporaryFolder folder;
  const auto model = import_text(folder, "old.json", R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "Kernel", "name": "k", "pid": 0, "tid": "stream 7", "ts": 140, "dur": 2,
     "args": {"device": 0, "stream": 7}},
    {"ph": "i", "s": "t", "name": "[memory]", "pid": 25738, "tid": 25738, "ts": 130,
     "args": {"Device Type": 1, "Device Id": 1, "Bytes": 19267584}}
  ]})json");
  ASSERT_EQ(model.memory_events.size(), 1u);
  EXPECT_EQ(model.memory_events.device[0], 1);
  EXPECT_EQ(model.memory_events.bytes[0], 19267584);
  EXPECT_EQ(model.memory_events.address[0], trace::kUnknown);
  EXPECT_EQ(model.memory_events.allocated_after[0], trace::kUnknown);
  EXPECT_EQ(stat_value(model, "import.skipped.instant"), std::nullopt);
}

// Every field a file can get wrong is counted and the event left out (a bad
// total alone is dropped to unknown); nothing crashes or wraps.
TEST(KinetoMemoryImport, BadFieldsAreCountedNeverStored) {
  testing::TemporaryFolder folder;
  const auto model = import_text(folder, "bad.json", R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 100, "dur": 5, "args": {"device": 0}},
    {"ph": "i", "name": "[memory]", "ts": 1, "args": {"Device Id": 0, "Bytes": 8}},
    {"ph": "i", "name": "[memory]", "ts": 1, "args": {"Device Type": 1, "Device Id": -1, "Bytes": 8}},
    {"ph": "i", "name": "[memory]", "ts": 1, "args": {"Device Type": 1, "Device Id": 4294967296, "Bytes": 8}},
    {"ph": "i", "name": "[memory]", "ts": 1, "args": {"Device Type": 1, "Device Id": 0, "Bytes": 0}},
    {"ph": "i", "name": "[memory]", "ts": 1, "args": {"Device Type": 1, "Device Id": 0, "Bytes": "-8"}},
    {"ph": "i", "name": "[memory]", "ts": 1,
     "args": {"Device Type": 1, "Device Id": 0, "Bytes": -9223372036854775808}},
    {"ph": "i", "name": "[memory]", "ts": 1, "args": {"Device Type": 1, "Device Id": 0, "Bytes": 8.5}},
    {"ph": "i", "name": "[memory]", "ts": "1", "args": {"Device Type": 1, "Device Id": 0, "Bytes": 8}},
    {"ph": "X", "name": "[memory]", "ts": 1, "dur": 1, "args": {"Device Type": 1, "Device Id": 0, "Bytes": 8}},
    {"ph": "i", "name": "[memory]", "args": {"Device Type": 1, "Device Id": 0, "Bytes": 8}},
    {"ph": "i", "name": "[memory]", "ts": 1, "args": {"Device Type": 13, "Device Id": 0, "Bytes": 8}},
    {"ph": "i", "name": "[memory]", "ts": 2,
     "args": {"Device Type": 1, "Device Id": 0, "Bytes": 8, "Total Allocated": -1}}
  ]})json");
  ASSERT_EQ(model.memory_events.size(), 1u);
  EXPECT_EQ(model.memory_events.allocated_after[0], trace::kUnknown);
  EXPECT_EQ(stat_value(model, "import.kineto.memory_bad_total"), 1);
  EXPECT_EQ(stat_value(model, "import.kineto.memory_bad_event.device_type"), 1);
  EXPECT_EQ(stat_value(model, "import.kineto.memory_bad_event.device_id"), 2);
  EXPECT_EQ(stat_value(model, "import.kineto.memory_bad_event.bytes"), 4);
  EXPECT_EQ(stat_value(model, "import.kineto.memory_bad_event.ts"), 3);
  EXPECT_EQ(stat_value(model, "import.kineto.memory_other_device_type.13"), 1);
}

std::string nsys_with_memory(const std::string& rows) {
  return testing::read_file(GPUPROF_SOURCE_DIR "/tests/importers/data/nsys_export.sql") + R"sql(
    CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER NOT NULL,
      deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, address INTEGER NOT NULL, pc INTEGER NOT NULL,
      bytes INTEGER NOT NULL, memKind INTEGER NOT NULL, memoryOperationType INTEGER NOT NULL, name TEXT,
      correlationId INTEGER);
  )sql" + rows;
}

TEST(NsysMemoryImport, ReadsAllocationsAndFreesWithTheirKinds) {
  testing::TemporaryFolder folder;
  const std::string input = folder.file("report.sqlite");
  testing::write_sqlite_file(input, nsys_with_memory(R"sql(
    INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES
      (600, 72058132318126080, 0, 1, 8652849152, 0, 40000, 1, 0, NULL, 0),
      (610, 72058132318126080, 0, 1, 47315943424, 0, 40000, 2, 0, NULL, 31),
      (900, 72058132318126080, 0, 1, 47315943424, 0, 40000, 2, 1, NULL, 0),
      (905, 72058132318126080, 1, 1, 1, 0, 16, 7, 0, NULL, NULL),
      (906, 72058132318126080, 1, 1, 2, 0, 16, 42, 0, NULL, NULL);)sql"));
  testing::import_file(input, folder.file("out.sqlite"));
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  const auto& m = model.memory_events;
  ASSERT_EQ(m.size(), 5u);
  EXPECT_EQ(m.memory_kind[0], MemoryKind::pinned);
  EXPECT_EQ(m.memory_kind[1], MemoryKind::device);
  EXPECT_EQ(m.correlation_id[0], trace::kUnknown);
  EXPECT_EQ(m.correlation_id[1], 31);
  EXPECT_EQ(m.context[1], 1);
  EXPECT_EQ(m.address[1], 47315943424);
  EXPECT_EQ(m.operation[2], MemoryOperation::free);
  EXPECT_EQ(m.time_ns[2], 900);
  EXPECT_EQ(m.memory_kind[3], MemoryKind::unknown);
  EXPECT_EQ(m.memory_kind[4], MemoryKind::unknown);
  EXPECT_EQ(stat_value(model, "import.nsys.memory_unknown_kind"), 1);
}

TEST(NsysMemoryImport, BadRowsAreCountedAndLeftOut) {
  testing::TemporaryFolder folder;
  const std::string input = folder.file("report.sqlite");
  testing::write_sqlite_file(input, nsys_with_memory(R"sql(
    INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES
      (-5, 0, 0, 1, 1, 0, 8, 2, 0, NULL, NULL),
      (600, 0, -1, 1, 1, 0, 8, 2, 0, NULL, NULL),
      (600, 0, 2147483648, 1, 1, 0, 8, 2, 0, NULL, NULL),
      (600, 0, 0, 1, 1, 0, -8, 2, 0, NULL, NULL),
      (600, 0, 0, 1, 1, 0, 8, 2, 2, NULL, NULL),
      (600, 0, 0, 1, 1, 0, 8, 2, 0, NULL, NULL);)sql"));
  testing::import_file(input, folder.file("out.sqlite"));
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  EXPECT_EQ(model.memory_events.size(), 1u);
  EXPECT_EQ(stat_value(model, "import.nsys.memory_bad_row.start"), 1);
  EXPECT_EQ(stat_value(model, "import.nsys.memory_bad_row.deviceId"), 2);
  EXPECT_EQ(stat_value(model, "import.nsys.memory_bad_row.bytes"), 1);
  EXPECT_EQ(stat_value(model, "import.nsys.memory_bad_row.memoryOperationType"), 1);
}

TEST(NsysMemoryImport, ATableWithoutTheColumnsIsCountedNotRead) {
  testing::TemporaryFolder folder;
  const std::string input = folder.file("report.sqlite");
  testing::write_sqlite_file(input, testing::read_file(GPUPROF_SOURCE_DIR "/tests/importers/data/nsys_export.sql") +
                                        "CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER, bytes INTEGER);"
                                        "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES (1, 2);");
  testing::import_file(input, folder.file("out.sqlite"));
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  EXPECT_EQ(model.memory_events.size(), 0u);
  EXPECT_EQ(stat_value(model, "import.nsys.memory_table_unreadable"), 1);
}

}  // namespace
}  // namespace gpuprof
