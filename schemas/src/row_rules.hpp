#pragma once

// What the loader accepts in each column of a trace table. A file is input
// from anywhere: every id, enum and time is checked before the model uses it
// as an index or subtracts it, and a row that breaks a rule is left out and
// counted (load.invalid.<table>.<column>), never trusted.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

struct sqlite3_stmt;

namespace gpuprof::trace {

enum class Rule : std::uint8_t {
  integer,            // any integer, not NULL
  integer_or_null,    // any integer, or NULL (unknown)
  int32_or_null,      // fits int32, or NULL
  count,              // >= 0, not NULL
  count_or_null,      // >= 0, or NULL
  positive_or_null,   // >= 1, or NULL
  device,             // 0 .. INT32_MAX
  device_or_null,
  time,               // integer >= 0
  end_time,           // integer >= the column before it (the start)
  string_id,          // names a present row of the strings table
  string_id_or_null,
  enum_value,         // integer in [low, high]
  enum_or_null,
};

struct ColumnRule {
  int column;
  const char* name;
  Rule rule;
  std::int64_t low = 0, high = 0;
};

// One row's columns, each read from SQLite once: the rules check these values
// and the loader stores the same ones. Reading a column through the C API costs
// more than the check, so checking and storing must not read it twice.
class RowValues {
 public:
  static constexpr int kMaxColumns = 24;
  static constexpr int kNull = 5;     // SQLITE_NULL
  static constexpr int kInteger = 1;  // SQLITE_INTEGER

  // Reads every column of the statement's current row (at most kMaxColumns).
  void fetch(sqlite3_stmt* statement);
  // A column the row does not have (an older minor version) reads as NULL.
  int type(int column) const { return column < count_ ? type_[column] : kNull; }
  bool is_null(int column) const { return type(column) == kNull; }
  std::int64_t i64(int column) const { return column < count_ ? value_[column] : 0; }
  // For rows decoded from a column chunk: `count` columns, each then set.
  void resize(int count) { count_ = count < kMaxColumns ? count : kMaxColumns; }
  void set(int column, bool null, std::int64_t value) {
    type_[column] = null ? kNull : kInteger;
    value_[column] = value;
  }

 private:
  int count_ = 0;
  std::array<int, kMaxColumns> type_{};
  std::array<std::int64_t, kMaxColumns> value_{};
};

// The first rule `row` breaks, or nullptr when it keeps them all.
// `strings_present[id]` says whether string `id` exists. `Values` is RowValues
// or a ChunkRow (event_chunks.hpp): both read a column as SQL would.
template <typename Values>
const ColumnRule* broken_rule(const Values& row, std::span<const ColumnRule> rules,
                              const std::vector<std::uint8_t>& strings_present);

class ChunkDecoder;
// Whether every row of a decoded chunk keeps every rule, checked a rule at a time over whole columns: the
// loader asks once per chunk, and rows then need no check of their own (broken_rule row by row was 5 % of
// loading 100 M events). False says only that some row breaks some rule: the rows are then checked one by one.
bool every_row_keeps(const ChunkDecoder& decoder, std::span<const ColumnRule> rules,
                     const std::vector<std::uint8_t>& strings_present);

// Why a row breaking `rule` was left out, for the counted problem's detail.
const char* describe(Rule rule);

// The rules of each table, by column position (SELECT * order), are derived
// from its declaration: kColumnRules<Row> (table_columns.hpp).

}  // namespace gpuprof::trace
