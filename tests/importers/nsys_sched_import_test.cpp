// Nsight Systems' SCHED_EVENTS become thread_states: each thread's switches
// paired in time order, with the export's own names for why a thread left its
// CPU; hostile rows counted, never stored as made-up stretches.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "gpuprof/trace/trace_model.hpp"
#include "import_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

constexpr std::int64_t kMain = 282323165693308;  // pid 50556, tid 50556
constexpr std::int64_t kOther = 282323165693309;  // tid 50557

std::string sched_export_sql() {
  const auto main = std::to_string(kMain), other = std::to_string(kOther);
  return testing::read_file(GPUPROF_SOURCE_DIR "/tests/importers/data/nsys_export.sql") + R"sql(
    CREATE TABLE ENUM_SAMPLING_THREAD_STATE (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
    INSERT INTO ENUM_SAMPLING_THREAD_STATE VALUES (0, 'Unknown', 'Unknown'), (1, 'Running', 'Running'),
      (2, 'Interruptible', 'Interruptible'), (5, 'Terminated', 'Terminated');
    CREATE TABLE ENUM_SCHEDULING_THREAD_BLOCK (id INTEGER PRIMARY KEY, name TEXT, label TEXT);
    INSERT INTO ENUM_SCHEDULING_THREAD_BLOCK VALUES (0, 'NonBlocked', 'NonBlocked'), (6, 'Mutex', 'Mutex');
    CREATE TABLE SCHED_EVENTS (start INTEGER, cpu INTEGER, isSchedIn INTEGER, globalTid INTEGER,
      threadState INTEGER, threadBlock INTEGER);
    -- Main thread: in 100, out 400 (Interruptible, Mutex), [in 700 comes last in the file], out 900,
    -- out 950 again (the switch in between is missing; state 77 is not in the enum), in 1200.
    INSERT INTO SCHED_EVENTS VALUES (100, 1, 1, )sql" + main + R"sql(, 0, NULL),
      (400, 1, 0, )sql" + main + R"sql(, 2, 6), (900, 2, 0, )sql" + main + R"sql(, 0, NULL),
      (950, 2, 0, )sql" + main + R"sql(, 77, 0), (1200, 3, 1, )sql" + main + R"sql(, 0, NULL),
      (1, 4, 1, )sql" + other + R"sql(, 0, NULL), (5, 4, 0, )sql" + other + R"sql(, 5, NULL),
      (700, 2, 1, )sql" + main + R"sql(, 0, NULL),
      (NULL, 1, 1, )sql" + main + R"sql(, 0, NULL), (-5, 1, 1, )sql" + main + R"sql(, 0, NULL),
      (30, 1, NULL, )sql" + main + R"sql(, 0, NULL), (30, 1, 1, NULL, 0, NULL);)sql";
}

std::map<std::string, std::int64_t> sched_stats(const trace::TraceModel& model) {
  std::map<std::string, std::int64_t> stats;
  for (const auto& stat : model.stats) {
    if (stat.name.starts_with("import.nsys.sched") || stat.name == "import.rows.thread_states") {
      stats[stat.name] = stat.value;
    }
  }
  return stats;
}

TEST(NsysSchedImport, SwitchesPairIntoRunningAndNotRunningStretchesPerThread) {
  testing::TemporaryFolder folder;
  const std::string input = folder.file("report.sqlite");
  testing::write_sqlite_file(input, sched_export_sql());
  testing::import_file(input, folder.file("out.sqlite"));
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  const auto& t = model.thread_states;
  using enum trace::ThreadRunState;
  ASSERT_EQ(t.size(), 5U);
  EXPECT_EQ(t.thread_id, (std::vector<std::int64_t>{50556, 50556, 50556, 50556, 50557}));
  EXPECT_EQ(t.process_id[0], 50556);  // the same mapping as the API calls' (NsysImport.WritesExactRows...)
  EXPECT_EQ(t.start_ns, (std::vector<std::int64_t>{100, 400, 700, 950, 1}));
  EXPECT_EQ(t.end_ns, (std::vector<std::int64_t>{400, 700, 900, 1200, 5}));
  EXPECT_EQ(t.state, (std::vector<trace::ThreadRunState>{running, not_running, running, not_running, running}));
  EXPECT_EQ(t.cpu, (std::vector<std::int64_t>{1, 1, 2, 2, 4}));
  EXPECT_EQ(model.string(t.os_state[1]), "Interruptible");
  EXPECT_EQ(model.string(t.block_reason[1]), "Mutex");
  EXPECT_EQ(t.os_state[0], trace::kNoString);  // a switch in says nothing about why
  EXPECT_EQ(t.os_state[3], trace::kNoString);  // 77: not in the export's enum
  EXPECT_EQ(model.string(t.block_reason[3]), "NonBlocked");
  const std::map<std::string, std::int64_t> expected = {
      {"import.nsys.sched_bad_row.start", 2},     {"import.nsys.sched_bad_row.isSchedIn", 1},
      {"import.nsys.sched_bad_row.globalTid", 1}, {"import.nsys.sched_unpaired", 1},
      {"import.nsys.sched_out_of_order", 1},      {"import.nsys.sched_unknown_state", 1},
      {"import.rows.thread_states", 5}};
  EXPECT_EQ(sched_stats(model), expected);
  // The scheduler is context, not an event: the trace's span stays that of its events.
  EXPECT_EQ(model.meta.at("start_ns"), "10");  // the first API call; the other thread ran from 1
}

TEST(NsysSchedImport, ATableWithoutTheColumnsReadIsCountedAndSkipped) {
  testing::TemporaryFolder folder;
  const std::string input = folder.file("report.sqlite");
  testing::write_sqlite_file(input, testing::read_file(GPUPROF_SOURCE_DIR "/tests/importers/data/nsys_export.sql") +
                                        "CREATE TABLE SCHED_EVENTS (start INTEGER, cpu INTEGER);"
                                        "INSERT INTO SCHED_EVENTS VALUES (1, 2);");
  testing::import_file(input, folder.file("out.sqlite"));
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  EXPECT_EQ(model.thread_states.size(), 0U);
  EXPECT_EQ(sched_stats(model), (std::map<std::string, std::int64_t>{{"import.nsys.sched_table_unreadable", 1}}));
}

}  // namespace
}  // namespace gpuprof
