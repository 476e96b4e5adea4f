#pragma once

// Column reads for the importers' hot loops over foreign SQLite tables.

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::importers {

inline std::int64_t column_int(sqlite3_stmt* statement, int column) {
  return sqlite3_column_int64(statement, column);
}

inline std::optional<std::int64_t> column_optional(sqlite3_stmt* statement, int column) {
  if (sqlite3_column_type(statement, column) == SQLITE_NULL) return std::nullopt;
  return sqlite3_column_int64(statement, column);
}

inline std::optional<std::int32_t> column_optional32(sqlite3_stmt* statement, int column) {
  if (sqlite3_column_type(statement, column) == SQLITE_NULL) return std::nullopt;
  return static_cast<std::int32_t>(sqlite3_column_int64(statement, column));
}

inline std::optional<std::string> column_optional_text(sqlite3_stmt* statement, int column) {
  const auto* text = sqlite3_column_text(statement, column);
  if (text == nullptr) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(text));
}

// One row of a foreign table with each column read through the C API once.
// Every sqlite3_column_* call enters the connection's mutex and checks for
// errors on the way out; a row decoded with column_optional() paid for two
// such calls per column (type, then value). Values read as
// sqlite3_column_int64 reads them (NULL as 0, REAL truncated, TEXT parsed).
class ForeignRow {
 public:
  static constexpr int kMaxColumns = 24;

  void fetch(sqlite3_stmt* statement) {
    count_ = std::min(sqlite3_column_count(statement), kMaxColumns);
    for (int column = 0; column < count_; ++column) {
      sqlite3_value* value = sqlite3_column_value(statement, column);
      null_[column] = sqlite3_value_type(value) == SQLITE_NULL;
      value_[column] = null_[column] ? 0 : sqlite3_value_int64(value);
    }
  }
  // A column past the SELECT's end reads as NULL.
  bool is_null(int column) const { return column >= count_ || null_[column]; }
  std::int64_t integer(int column) const { return column < count_ ? value_[column] : 0; }
  std::optional<std::int64_t> optional(int column) const {
    if (is_null(column)) return std::nullopt;
    return value_[column];
  }
  std::optional<std::int32_t> optional32(int column) const {
    if (is_null(column)) return std::nullopt;
    return static_cast<std::int32_t>(value_[column]);
  }

 private:
  int count_ = 0;
  std::array<bool, kMaxColumns> null_{};
  std::array<std::int64_t, kMaxColumns> value_{};
};

// True when `table` has `column` (exports of different nsys versions differ).
inline bool has_column(sqlite::Database& database, const std::string& table, const std::string& column) {
  return database.query_int("SELECT count(*) FROM pragma_table_info('" + table + "') WHERE name = '" + column + "'")
             .value_or(0) > 0;
}

}  // namespace gpuprof::importers
