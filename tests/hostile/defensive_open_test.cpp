// Code stored in a trace file never runs (issue 16): triggers (but our own
// chunk guards, exactly as written) and views named like our tables are
// refused with one line, a lock is waited for and then
// reported as such, and reading is bounded by a work budget.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>

#include "gpuprof/trace/chunk_guards.hpp"
#include "gpuprof/trace/derived_tables.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "hostile_trace.hpp"

namespace gpuprof::testing {
namespace {

using DefensiveOpen = HostileTrace;

// Expects every way in to refuse the trace as bad input with one line containing `expected`.
void expect_refused(const std::string& path, const std::string& expected, const std::string& scratch) {
  try {
    run_every_output(path, scratch);
    ADD_FAILURE() << "analysed " << path;
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input) << error.what();
    EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << error.what();
  }
}

// A recursive view in place of a table: reading it would never end.
TEST_F(DefensiveOpen, RecursiveViewNamedLikeOurTableIsRefused) {
  edit("DROP TABLE kernels; CREATE VIEW kernels AS WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) "
       "SELECT 0 AS device, NULL AS context, NULL AS stream, x AS start_ns, x AS end_ns, NULL AS correlation_id, "
       "0 AS name_id FROM r");
  expect_refused(trace_, "view kernels", folder_.path().string());
}

TEST_F(DefensiveOpen, TriggerIsRefusedAndSaveDoesNotFireIt) {
  const auto kernels = count("SELECT count(*) FROM kernels");
  edit("CREATE TRIGGER wipe AFTER INSERT ON steps BEGIN DELETE FROM kernels; END");
  expect_refused(trace_, "trigger wipe", folder_.path().string());
  try {
    trace::save_derived_tables(trace_, {{.device = 0, .step = 1, .start_ns = 0, .end_ns = 10}}, {});
    ADD_FAILURE() << "--save wrote into a file with a trigger";
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input) << error.what();
    EXPECT_NE(std::string(error.what()).find("trigger wipe"), std::string::npos) << error.what();
  }
  EXPECT_EQ(count("SELECT count(*) FROM kernels"), kernels);
  EXPECT_EQ(count("SELECT count(*) FROM steps"), 0);
}

// Our writer's chunk guards are the one kind of trigger a file may hold, and
// only exactly as we create them: one of their names with other SQL (another
// body, another letter case, one more space) is refused like any trigger.
TEST_F(DefensiveOpen, AChunkGuardNameWithOtherSqlIsRefused) {
  const auto& guard = trace::chunk_guard_triggers().front();
  const std::string body = "DELETE FROM event_chunks;";
  ASSERT_NE(guard.sql.find(body), std::string::npos);
  for (const std::string other : {"DELETE FROM strings;", "delete from event_chunks;", "DELETE FROM event_chunks; "}) {
    std::string sql = guard.sql;
    sql.replace(sql.find(body), body.size(), other);
    edit("DROP TRIGGER " + guard.name + "; " + sql);
    ASSERT_EQ(count("SELECT count(*) FROM sqlite_master WHERE name = '" + guard.name + "'"), 1) << other;
    expect_refused(trace_, "trigger " + guard.name, folder_.path().string());
  }
}

// A trigger beside the guards, even one named and written like them, is refused.
TEST_F(DefensiveOpen, AForeignTriggerBesideTheChunkGuardsIsRefused) {
  const auto guards = static_cast<std::int64_t>(trace::chunk_guard_triggers().size());
  ASSERT_EQ(count("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"), guards);
  edit("CREATE TRIGGER gpuprof_chunks_stale_after_delete_on_steps AFTER DELETE ON steps BEGIN DELETE FROM "
       "event_chunks; END");
  ASSERT_EQ(count("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"), guards + 1);
  expect_refused(trace_, "trigger gpuprof_chunks_stale_after_delete_on_steps", folder_.path().string());
}

// `report --save` writes steps and gaps, which no guard watches: a file with
// its guards and chunks is saved into, and keeps both.
TEST_F(DefensiveOpen, SaveWritesIntoAFileWithTheChunkGuards) {
  const auto chunks = count("SELECT count(*) FROM event_chunks");
  ASSERT_GT(chunks, 0);
  trace::save_derived_tables(trace_, {{.device = 0, .step = 1, .start_ns = 0, .end_ns = 10}}, {});
  EXPECT_EQ(count("SELECT count(*) FROM steps"), 1);
  EXPECT_EQ(count("SELECT count(*) FROM event_chunks"), chunks);
  EXPECT_EQ(count("SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"),
            static_cast<std::int64_t>(trace::chunk_guard_triggers().size()));
  EXPECT_NO_THROW(run_every_output(trace_, folder_.path().string()));
}

TEST_F(DefensiveOpen, ConnectionsAreDefensive) {
  trace::TraceFile file(trace_);
  int defensive = -1, trusted = -1, triggers = -1, views = -1;
  sqlite3_db_config(file.database().handle(), SQLITE_DBCONFIG_DEFENSIVE, -1, &defensive);
  sqlite3_db_config(file.database().handle(), SQLITE_DBCONFIG_TRUSTED_SCHEMA, -1, &trusted);
  sqlite3_db_config(file.database().handle(), SQLITE_DBCONFIG_ENABLE_TRIGGER, -1, &triggers);
  sqlite3_db_config(file.database().handle(), SQLITE_DBCONFIG_ENABLE_VIEW, -1, &views);
  EXPECT_EQ(defensive, 1);
  EXPECT_EQ(trusted, 0);
  EXPECT_EQ(triggers, 0);
  EXPECT_EQ(views, 0);
}

// Work that never ends (here a recursive query) is interrupted by the budget and
// blamed on the file.
TEST_F(DefensiveOpen, WorkBudgetInterruptsEndlessQueries) {
  sqlite::Database database(trace_, sqlite::OpenMode::read_only);
  database.limit_work(10'000'000);
  try {
    database.query_int("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r");
    ADD_FAILURE() << "an endless query finished";
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input) << error.what();
    EXPECT_NE(std::string(error.what()).find("more work"), std::string::npos) << error.what();
  }
}

// A generated column computes its value from the file's own expression on every
// read (issue 27: one took 300 s of CPU, another 7.9 GB): refused like a trigger.
TEST_F(DefensiveOpen, GeneratedColumnsAreRefused) {
  edit("ALTER TABLE kernels ADD COLUMN boom INTEGER GENERATED ALWAYS AS (1) VIRTUAL");
  expect_refused(trace_, "generated column kernels.boom", folder_.path().string());
  edit("ALTER TABLE kernels DROP COLUMN boom; CREATE TABLE notes(x INTEGER, y INTEGER AS (x * 2) STORED)");
  expect_refused(trace_, "generated column notes.y", folder_.path().string());
}

// Every connection to an existing file carries the budget, not only the trace reader's.
// (Running one out takes tens of seconds; WorkBudgetInterruptsEndlessQueries shows it stops a query.)
TEST_F(DefensiveOpen, EveryConnectionHasAWorkBudget) {
  const auto bytes = static_cast<std::uint64_t>(std::filesystem::file_size(trace_));
  for (const auto mode : {sqlite::OpenMode::read_only, sqlite::OpenMode::read_write}) {
    sqlite::Database database(trace_, mode);
    EXPECT_EQ(database.work_left(), sqlite::kMinimumWork + bytes * sqlite::kWorkPerByte);
  }
}

// Past the hard heap limit SQLite fails the statement, and the file is blamed in one line.
TEST_F(DefensiveOpen, MemoryPastTheHeapLimitIsBadInput) {
  sqlite::configure_for_untrusted_files(std::int64_t{64} << 20);
  sqlite::Database database(trace_, sqlite::OpenMode::read_only);
  try {
    database.query_int("SELECT length(a) + length(b) + length(c) FROM (SELECT printf('%.*c', 30000000, 'a') AS a, "
                       "printf('%.*c', 30000000, 'b') AS b, printf('%.*c', 30000000, 'c') AS c)");
    ADD_FAILURE() << "90 MB of strings under a 64 MiB heap limit";
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input) << error.what();
    EXPECT_NE(std::string(error.what()).find("needs more memory"), std::string::npos) << error.what();
  }
  sqlite::configure_for_untrusted_files(0);
}

// Another program holding the write lock: wait a few seconds, then say so.
TEST_F(DefensiveOpen, LockedFileIsReportedAsLocked) {
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(trace_.c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "PRAGMA journal_mode = DELETE; BEGIN EXCLUSIVE", nullptr, nullptr, nullptr),
            SQLITE_OK);
  try {
    trace::TraceFile file(trace_);
    file.meta();
    ADD_FAILURE() << "read a file another connection holds exclusively";
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input) << error.what();
    EXPECT_NE(std::string(error.what()).find("locked by another program"), std::string::npos) << error.what();
  }
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
}

}  // namespace
}  // namespace gpuprof::testing
