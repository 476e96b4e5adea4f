#pragma once

// Column reads for the importers' hot loops over foreign SQLite tables.

#include <sqlite3.h>

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

// True when `table` has `column` (exports of different nsys versions differ).
inline bool has_column(sqlite::Database& database, const std::string& table, const std::string& column) {
  return database.query_int("SELECT count(*) FROM pragma_table_info('" + table + "') WHERE name = '" + column + "'")
             .value_or(0) > 0;
}

}  // namespace gpuprof::importers
