#include "gpuprof/trace/sqlite_database.hpp"

#include <sqlite3.h>

#include <utility>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::sqlite {

void configure_for_bulk_work() { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

Database::Database(const std::string& path, OpenMode mode) : path_(path) {
  int flags = SQLITE_OPEN_NOMUTEX;
  switch (mode) {
    case OpenMode::read_only: flags |= SQLITE_OPEN_READONLY; break;
    case OpenMode::read_write: flags |= SQLITE_OPEN_READWRITE; break;
    case OpenMode::create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE; break;
  }
  const int status = sqlite3_open_v2(path.c_str(), &handle_, flags, nullptr);
  if (status != SQLITE_OK) {
    std::string message = handle_ ? sqlite3_errmsg(handle_) : sqlite3_errstr(status);
    sqlite3_close(handle_);
    handle_ = nullptr;
    throw TraceError::bad_input(path, "cannot open as SQLite: " + message);
  }
  sqlite3_extended_result_codes(handle_, 1);
}

Database::~Database() { close(); }

Database::Database(Database&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), path_(std::move(other.path_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    close();
    handle_ = std::exchange(other.handle_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

void Database::close() {
  if (handle_) {
    sqlite3_close_v2(handle_);
    handle_ = nullptr;
  }
}

void Database::fail(std::string_view what) const {
  const int code = sqlite3_extended_errcode(handle_);
  const std::string message = std::string(what) + ": " + sqlite3_errmsg(handle_);
  const int primary = code & 0xff;
  // Damaged or foreign files are the user's input problem; I/O and space errors are ours.
  if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_ERROR ||
      primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN) {
    throw TraceError::bad_input(path_, message);
  }
  throw TraceError::failure(path_, message);
}

void Database::execute(std::string_view sql) {
  char* error = nullptr;
  const std::string text(sql);
  if (sqlite3_exec(handle_, text.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    sqlite3_free(error);
    fail("SQL failed");
  }
}

std::optional<std::int64_t> Database::query_int(std::string_view sql) {
  Statement statement(*this, sql);
  if (!statement.step()) return std::nullopt;
  return statement.column_optional_int(0);
}

bool Database::has_table(std::string_view name) {
  Statement statement(*this, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  statement.bind(1, name);
  return statement.step();
}

Statement::Statement(Database& database, std::string_view sql) : database_(&database) {
  if (sqlite3_prepare_v2(database.handle(), sql.data(), static_cast<int>(sql.size()), &statement_,
                         nullptr) != SQLITE_OK) {
    database.fail("cannot prepare \"" + std::string(sql.substr(0, 60)) + "\"");
  }
}

Statement::~Statement() { sqlite3_finalize(statement_); }

Statement::Statement(Statement&& other) noexcept
    : database_(other.database_), statement_(std::exchange(other.statement_, nullptr)) {}

void Statement::bind(int index, std::int64_t value) { sqlite3_bind_int64(statement_, index, value); }
void Statement::bind(int index, double value) { sqlite3_bind_double(statement_, index, value); }
void Statement::bind(int index, std::string_view value) {
  sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}
void Statement::bind_null(int index) { sqlite3_bind_null(statement_, index); }
void Statement::bind(int index, const std::optional<std::string>& value) {
  if (value) {
    bind(index, std::string_view(*value));
  } else {
    bind_null(index);
  }
}

bool Statement::step() {
  const int status = sqlite3_step(statement_);
  if (status == SQLITE_ROW) return true;
  if (status == SQLITE_DONE) return false;
  database_->fail("query failed");
}

void Statement::run() {
  const int status = sqlite3_step(statement_);
  sqlite3_reset(statement_);
  if (status != SQLITE_DONE && status != SQLITE_ROW) database_->fail("write failed");
}

void Statement::reset() { sqlite3_reset(statement_); }

bool Statement::is_null(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}
std::int64_t Statement::column_int(int column) const { return sqlite3_column_int64(statement_, column); }
std::optional<std::int64_t> Statement::column_optional_int(int column) const {
  if (is_null(column)) return std::nullopt;
  return sqlite3_column_int64(statement_, column);
}
double Statement::column_double(int column) const { return sqlite3_column_double(statement_, column); }
std::string_view Statement::column_text(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
  if (!text) return {};
  return {text, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))};
}

}  // namespace gpuprof::sqlite
