#include "hostile_trace.hpp"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <sqlite3.h>

#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_writer.hpp"

namespace gpuprof::testing {

void HostileTrace::SetUp() {
  trace_ = folder_.file("trace.sqlite");
  synthetic::write_synthetic_trace(trace_, {.devices = 2, .steps = 4, .kernels_per_step = 8});
}

void HostileTrace::edit(const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(trace_.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  const int code = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  EXPECT_EQ(code, SQLITE_OK) << sql << ": " << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
  // The column chunks are rewritten from the edited rows, so that hostile values
  // reach the loader through the chunks too (a table holding text gets none, and
  // is read from its rows): both paths must count the same problems. Edits that
  // create or drop tables, views or triggers lose the chunks instead: rewriting
  // would run the stored code (such files are refused before any chunk is read).
  const bool rebuilds = sql.find("CREATE") != std::string::npos || sql.find("DROP") != std::string::npos;
  if (rebuilds) {
    ASSERT_EQ(sqlite3_open(trace_.c_str(), &db), SQLITE_OK);
    sqlite3_exec(db, "DELETE FROM event_chunks", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return;
  }
  sqlite::Database database(trace_, sqlite::OpenMode::read_write);
  database.execute("BEGIN");
  trace::rewrite_event_chunks(database);
  database.execute("COMMIT");
}

std::int64_t HostileTrace::count(const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_stmt* statement = nullptr;
  std::int64_t value = -1;
  if (sqlite3_open(trace_.c_str(), &db) == SQLITE_OK &&
      sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK && sqlite3_step(statement) == SQLITE_ROW) {
    value = sqlite3_column_int64(statement, 0);
  }
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return value;
}

EveryOutput HostileTrace::outputs() {
  auto result = run_every_output(trace_, folder_.path().string());
  for (const auto& [what, text] : result.texts) {
    if (what.ends_with("json")) expect_strict_json(what, text);
  }
  return result;
}

void expect_problem(const EveryOutput& output, const std::string& problem) {
  for (const auto& line : output.warnings) {
    if (line.starts_with(problem + " ")) return;
  }
  std::string all;
  for (const auto& line : output.warnings) all += "\n  " + line;
  ADD_FAILURE() << "no data-loss line starts with \"" << problem << "\"; lines:" << all;
}

void expect_strict_json(const std::string& what, const std::string& text) {
  rapidjson::Document document;
  document.Parse<rapidjson::kParseValidateEncodingFlag>(text.c_str(), text.size());
  EXPECT_FALSE(document.HasParseError()) << what << ": " << rapidjson::GetParseError_En(document.GetParseError())
                                         << " at " << document.GetErrorOffset();
}

}  // namespace gpuprof::testing
