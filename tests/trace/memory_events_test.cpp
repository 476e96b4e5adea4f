// The memory_events table (schema 1.3): rows come back with their NULLs,
// sorted by device and time with ties in the file's order; rows breaking a
// rule are left out and counted; files of 1.2 load with the table absent.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::trace {
namespace {

void write_memory_fixture(const std::string& path) {
  TraceWriter writer({.path = path, .tool_version = "test"});
  writer.add(MemoryEventRow{.device = 1, .time_ns = 300, .operation = MemoryOperation::free, .bytes = 64});
  writer.add(MemoryEventRow{.device = 1, .context = 2, .stream = 7, .time_ns = 100, .correlation_id = 9,
                            .operation = MemoryOperation::alloc, .memory_kind = MemoryKind::device,
                            .address = 4096, .bytes = 64, .allocated_after = 1064});
  writer.add(MemoryEventRow{.device = 0, .time_ns = 300, .operation = MemoryOperation::alloc, .bytes = 8});
  writer.add(MemoryEventRow{.device = 0, .time_ns = 300, .operation = MemoryOperation::free, .bytes = 8});
  writer.finish();
}

TEST(MemoryEvents, ComeBackSortedByDeviceAndTimeWithTheirNulls) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  write_memory_fixture(path);
  const auto model = load_trace_model(path);
  const auto& m = model.memory_events;
  EXPECT_TRUE(model.memory_events_table);
  ASSERT_EQ(m.size(), 4U);
  EXPECT_EQ(m.device, (std::vector<std::int32_t>{0, 0, 1, 1}));
  EXPECT_EQ(m.time_ns, (std::vector<std::int64_t>{300, 300, 100, 300}));
  // Same device and time: the alloc the file gave first stays first.
  EXPECT_EQ(m.operation[0], MemoryOperation::alloc);
  EXPECT_EQ(m.operation[1], MemoryOperation::free);
  EXPECT_EQ(m.context[2], 2);
  EXPECT_EQ(m.stream[2], 7);
  EXPECT_EQ(m.correlation_id[2], 9);
  EXPECT_EQ(m.memory_kind[2], MemoryKind::device);
  EXPECT_EQ(m.address[2], 4096);
  EXPECT_EQ(m.allocated_after[2], 1064);
  EXPECT_EQ(m.context[3], kUnknown);
  EXPECT_EQ(m.memory_kind[3], MemoryKind::unknown);
  EXPECT_EQ(m.address[3], kUnknown);
  EXPECT_EQ(m.allocated_after[3], kUnknown);
  EXPECT_EQ(m.bytes[3], 64);
}

TEST(MemoryEvents, RowsBreakingARuleAreLeftOutAndCounted) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  write_memory_fixture(path);
  {
    sqlite::Database database(path, sqlite::OpenMode::read_write);
    database.execute(
        "INSERT INTO memory_events VALUES (0, NULL, NULL, 5, NULL, 3, NULL, NULL, 1, NULL);"   // no such operation
        "INSERT INTO memory_events VALUES (0, NULL, NULL, 5, NULL, 1, NULL, NULL, -1, NULL);"  // negative size
        "INSERT INTO memory_events VALUES (-1, NULL, NULL, 5, NULL, 1, NULL, NULL, 1, NULL);"
        "INSERT INTO memory_events VALUES (0, NULL, NULL, -5, NULL, 1, NULL, NULL, 1, NULL);"
        "INSERT INTO memory_events VALUES (0, NULL, NULL, 5, NULL, 1, 99, NULL, 1, NULL);"
        "INSERT INTO memory_events VALUES (0, NULL, NULL, 5, NULL, 1, NULL, NULL, 1, -3);"
        "INSERT INTO memory_events VALUES (0, NULL, NULL, 5, NULL, 1, NULL, 'x', 1, NULL);");
  }
  const auto model = load_trace_model(path);
  EXPECT_EQ(model.memory_events.size(), 4U);
  std::map<std::string, std::int64_t> left_out;
  for (const auto& stat : model.stats) {
    if (stat.name.starts_with("load.invalid.memory_events.")) left_out[stat.name] = stat.value;
  }
  const std::map<std::string, std::int64_t> expected = {
      {"load.invalid.memory_events.operation", 1}, {"load.invalid.memory_events.bytes", 1},
      {"load.invalid.memory_events.device", 1},    {"load.invalid.memory_events.time_ns", 1},
      {"load.invalid.memory_events.memory_kind", 1}, {"load.invalid.memory_events.allocated_after", 1},
      {"load.invalid.memory_events.address", 1}};
  EXPECT_EQ(left_out, expected);
}

// Files of schema 1.2 have no memory_events table: memory use was not recorded.
TEST(MemoryEvents, Schema12FilesWithoutTheTableStillLoad) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  write_memory_fixture(path);
  {
    sqlite::Database database(path, sqlite::OpenMode::read_write);
    database.execute("DROP TABLE memory_events; DROP TABLE memory_operations; PRAGMA user_version = 1002;");
  }
  EXPECT_EQ(TraceFile(path).schema_version_text(), "1.2");
  const auto model = load_trace_model(path);
  EXPECT_FALSE(model.memory_events_table);
  EXPECT_EQ(model.memory_events.size(), 0U);
  for (const auto& stat : model.stats) EXPECT_FALSE(stat.name.starts_with("load.invalid")) << stat.name;
}

}  // namespace
}  // namespace gpuprof::trace
