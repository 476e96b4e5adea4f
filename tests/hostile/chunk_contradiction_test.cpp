// Column chunks serve only when they match the rows they claim (issue 27):
// rows changed behind the chunk guards' back, or a table holding fewer rows
// than its largest row id, make the loader read the rows and say so.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

#include "gpuprof/trace/trace_model.hpp"
#include "hostile_trace.hpp"

namespace gpuprof::testing {
namespace {

using ChunkContradiction = HostileTrace;

// As a hostile writer would: the guards that empty event_chunks never fire.
void edit_without_triggers(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

TEST_F(ChunkContradiction, RowsChangedBehindTheChunksAreReadInstead) {
  ASSERT_GT(count("SELECT count(*) FROM event_chunks WHERE table_name = 'kernels'"), 0);
  edit_without_triggers(trace_, "UPDATE kernels SET start_ns = start_ns + 1000, end_ns = end_ns + 1000 "
                                "WHERE rowid = 1");
  ASSERT_GT(count("SELECT count(*) FROM event_chunks WHERE table_name = 'kernels'"), 0);
  const auto model = trace::load_trace_model(trace_);
  EXPECT_EQ(model.kernels.start_ns.front(), count("SELECT start_ns FROM kernels WHERE rowid = 1"));
  expect_problem(outputs(), "load.chunks.kernels = 1");
}

TEST_F(ChunkContradiction, ChunksNeverMakeMoreRowsThanTheTableHolds) {
  const auto kernels = count("SELECT count(*) FROM kernels");
  edit_without_triggers(trace_, "DELETE FROM kernels WHERE rowid < (SELECT max(rowid) FROM kernels)");
  const auto model = trace::load_trace_model(trace_);
  EXPECT_EQ(model.kernels.size(), 1U) << "the table holds one of " << kernels << " kernels";
  expect_problem(outputs(), "load.chunks.kernels = 1");
}

}  // namespace
}  // namespace gpuprof::testing
