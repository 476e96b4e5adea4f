// TraceFile refuses every kind of bad file with one sentence naming the file,
// classified as bad input, and leaves the file byte-for-byte unchanged.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::trace {
namespace {

void write_valid_trace(const std::string& path) {
  TraceWriter writer({.path = path});
  for (int i = 0; i < 2000; ++i) writer.add(KernelRow{.start_ns = i, .end_ns = i + 1, .name = writer.intern("k")});
  writer.finish();
}

void run_sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

// Opens the file, expects a bad-input refusal mentioning `expected`, and checks the file is untouched.
void expect_refused(const std::string& path, const std::string& expected) {
  const bool existed = std::filesystem::is_regular_file(path);
  const std::string before = existed ? testing::read_file(path) : "";
  try {
    TraceFile file(path);
    FAIL() << "opened " << path;
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
    EXPECT_EQ(error.path(), path);
    EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << "one line";
  }
  if (existed) {
    EXPECT_EQ(testing::read_file(path), before);
  }
}

TEST(TraceFileRefusal, MissingFile) {
  testing::TemporaryFolder folder;
  expect_refused(folder.file("absent.sqlite"), "no such file");
}

TEST(TraceFileRefusal, Directory) {
  testing::TemporaryFolder folder;
  expect_refused(folder.path().string(), "is a directory");
}

TEST(TraceFileRefusal, EmptyFile) {
  testing::TemporaryFolder folder;
  testing::write_file(folder.file("empty.sqlite"), "");
  expect_refused(folder.file("empty.sqlite"), "is empty");
}

TEST(TraceFileRefusal, JsonFileSuggestsImport) {
  testing::TemporaryFolder folder;
  testing::write_file(folder.file("trace.json"), R"({"traceEvents": []})");
  expect_refused(folder.file("trace.json"), "gpuprof import");
}

TEST(TraceFileRefusal, ForeignSqliteFile) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("nsys.sqlite");
  run_sql(path, "CREATE TABLE StringIds(id INTEGER, value TEXT); INSERT INTO StringIds VALUES (1, 'x');");
  expect_refused(path, "without the gpuprof trace schema");
}

TEST(TraceFileRefusal, MetaTableOfAnotherTool) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("other.sqlite");
  run_sql(path, "CREATE TABLE meta(key TEXT, value TEXT); INSERT INTO meta VALUES ('format', 'other');");
  expect_refused(path, "not a gpuprof trace");
}

TEST(TraceFileRefusal, NewerMajorVersion) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("future.sqlite");
  write_valid_trace(path);
  run_sql(path, "PRAGMA user_version = 2003");
  expect_refused(path, "schema version 2.3, newer than this gpuprof reads");
}

TEST(TraceFileRefusal, NewerMinorVersionIsRead) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("minor.sqlite");
  write_valid_trace(path);
  run_sql(path, "PRAGMA user_version = 1007; ALTER TABLE kernels ADD COLUMN future_column INTEGER;");
  TraceFile file(path);
  EXPECT_EQ(file.schema_version_text(), "1.7");
  EXPECT_EQ(file.counts()[0].rows, 2000);
}

TEST(TraceFileRefusal, TruncatedFile) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("cut.sqlite");
  write_valid_trace(path);
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size / 2);
  expect_refused(path, "is truncated");
}

TEST(TraceFileRefusal, TruncatedHeader) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("cut.sqlite");
  write_valid_trace(path);
  std::filesystem::resize_file(path, 40);
  expect_refused(path, "truncated");
}

}  // namespace
}  // namespace gpuprof::trace
