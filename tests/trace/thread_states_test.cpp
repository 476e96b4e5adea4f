// The thread_states table (schema 1.4): stretches come back sorted by thread
// and start with their NULLs; rows breaking a rule, and stretches that overlap
// an earlier one of their thread, are left out and counted; files of 1.3 load
// with no thread state.
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

void write_thread_fixture(const std::string& path) {
  TraceWriter writer({.path = path, .tool_version = "test"});
  const auto interruptible = writer.intern("Interruptible");
  const auto mutex = writer.intern("Mutex");
  writer.add(ThreadStateRow{.process_id = 7, .thread_id = 12, .start_ns = 300, .end_ns = 500,
                            .state = ThreadRunState::not_running, .cpu = 3, .os_state = interruptible,
                            .block_reason = mutex});
  writer.add(ThreadStateRow{.thread_id = 12, .start_ns = 100, .end_ns = 300, .state = ThreadRunState::running});
  writer.add(ThreadStateRow{.process_id = 7, .thread_id = 5, .start_ns = 200, .end_ns = 250,
                            .state = ThreadRunState::running, .cpu = 0});
  writer.finish();
}

std::map<std::string, std::int64_t> left_out_rows(const TraceModel& model) {
  std::map<std::string, std::int64_t> left_out;
  for (const auto& stat : model.stats) {
    if (stat.name.starts_with("load.invalid.thread_states.")) left_out[stat.name] = stat.value;
  }
  return left_out;
}

TEST(ThreadStates, ComeBackSortedByThreadAndStartWithTheirNulls) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  write_thread_fixture(path);
  const auto model = load_trace_model(path);
  const auto& t = model.thread_states;
  ASSERT_EQ(t.size(), 3U);
  EXPECT_EQ(t.thread_id, (std::vector<std::int64_t>{5, 12, 12}));
  EXPECT_EQ(t.start_ns, (std::vector<std::int64_t>{200, 100, 300}));
  EXPECT_EQ(t.end_ns, (std::vector<std::int64_t>{250, 300, 500}));
  EXPECT_EQ(t.state, (std::vector<ThreadRunState>{ThreadRunState::running, ThreadRunState::running,
                                                  ThreadRunState::not_running}));
  EXPECT_EQ(t.process_id[1], kUnknown);
  EXPECT_EQ(t.cpu[1], kUnknown);
  EXPECT_EQ(t.os_state[1], kNoString);
  EXPECT_EQ(t.cpu[2], 3);
  EXPECT_EQ(model.string(t.os_state[2]), "Interruptible");
  EXPECT_EQ(model.string(t.block_reason[2]), "Mutex");
  EXPECT_TRUE(left_out_rows(model).empty());
}

TEST(ThreadStates, HostileRowsAreLeftOutAndCounted) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  write_thread_fixture(path);
  {
    sqlite::Database database(path, sqlite::OpenMode::read_write);
    // Another program's file need not keep our constraints: the same table without them.
    database.execute(
        "CREATE TABLE loose AS SELECT * FROM thread_states; DROP TABLE thread_states;"
        "ALTER TABLE loose RENAME TO thread_states;"
        "INSERT INTO thread_states VALUES (7, 12, 400, 450, 1, NULL, NULL, NULL);"      // overlaps 300-500
        "INSERT INTO thread_states VALUES (7, 12, 900, 800, 1, NULL, NULL, NULL);"      // ends before it starts
        "INSERT INTO thread_states VALUES (7, 12, -5, 10, 1, NULL, NULL, NULL);"        // negative time
        "INSERT INTO thread_states VALUES (7, 12, 600, 700, 3, NULL, NULL, NULL);"      // no such state
        "INSERT INTO thread_states VALUES (7, NULL, 600, 700, 1, NULL, NULL, NULL);"    // no thread
        "INSERT INTO thread_states VALUES (7, 'x', 600, 700, 1, NULL, NULL, NULL);"     // not an integer
        "INSERT INTO thread_states VALUES (7, 12, 600, 700, 2, NULL, 99999, NULL);"     // no such string
        "INSERT INTO thread_states VALUES (7, 12, 600, 700, 2, NULL, NULL, -1);");
  }
  const auto model = load_trace_model(path);
  EXPECT_EQ(model.thread_states.size(), 3U);
  const std::map<std::string, std::int64_t> expected = {
      {"load.invalid.thread_states.overlap", 1},   {"load.invalid.thread_states.end_ns", 1},
      {"load.invalid.thread_states.start_ns", 1},  {"load.invalid.thread_states.state", 1},
      {"load.invalid.thread_states.thread_id", 2}, {"load.invalid.thread_states.os_state_id", 1},
      {"load.invalid.thread_states.block_reason_id", 1}};
  EXPECT_EQ(left_out_rows(model), expected);
  for (std::size_t row = 1; row < model.thread_states.size(); ++row) {
    if (model.thread_states.thread_id[row] != model.thread_states.thread_id[row - 1]) continue;
    EXPECT_GE(model.thread_states.start_ns[row], model.thread_states.end_ns[row - 1]);
  }
}

// Files of schema 1.3 have no thread_states table: the scheduler was not recorded.
TEST(ThreadStates, Schema13FilesWithoutTheTableStillLoad) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  write_thread_fixture(path);
  {
    sqlite::Database database(path, sqlite::OpenMode::read_write);
    database.execute("DROP TABLE thread_states; DROP TABLE thread_state_kinds; PRAGMA user_version = 1003;");
  }
  EXPECT_EQ(TraceFile(path).schema_version_text(), "1.3");
  const auto model = load_trace_model(path);
  EXPECT_EQ(model.thread_states.size(), 0U);
  for (const auto& stat : model.stats) EXPECT_FALSE(stat.name.starts_with("load.invalid")) << stat.name;
}

}  // namespace
}  // namespace gpuprof::trace
