#pragma once

// How a trace table is declared: its columns in schema order, each with its SQL
// type, the record member it stores and the rule a loaded value must keep. The
// CREATE TABLE text, the INSERT statements, the binding of a record to them and
// the row rules are all derived from that one description, so that they cannot
// disagree (the tables themselves are in table_declarations.hpp).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "gpuprof/trace/records.hpp"
#include "row_rules.hpp"

namespace gpuprof::trace {

// One column's value of one record, as SQLite stores it.
struct Cell {
  enum class Kind : std::uint8_t { null, integer, text };
  Kind kind = Kind::null;
  std::int64_t integer = 0;
  std::string_view text;  // points into the record
};

template <typename T>
Cell to_cell(const T& value) {
  if constexpr (std::is_same_v<T, std::string>) {
    return {Cell::Kind::text, 0, value};
  } else if constexpr (std::is_enum_v<T>) {
    return {Cell::Kind::integer, static_cast<std::int64_t>(value), {}};
  } else {
    static_assert(std::is_integral_v<T>, "a column holds an integer, an enum code or text");
    return {Cell::Kind::integer, static_cast<std::int64_t>(value), {}};
  }
}
// Unknown is stored as NULL, never as a made-up default.
template <typename T>
Cell to_cell(const std::optional<T>& value) {
  return value ? to_cell(*value) : Cell{};
}

template <typename>
struct MemberOf;
template <typename Record, typename Value>
struct MemberOf<Value Record::*> {
  using record = Record;
};
template <auto Member>
using RecordOf = typename MemberOf<decltype(Member)>::record;

// The column that stores `Member` as it is.
template <auto Member>
Cell field(const RecordOf<Member>& row) {
  return to_cell(row.*Member);
}

// One of the three columns that store an optional Dim3 member: x (0), y (1), z (2).
template <auto Member, int Axis>
Cell axis(const RecordOf<Member>& row) {
  const auto& dims = row.*Member;
  if (!dims) return {};
  return to_cell(Axis == 0 ? dims->x : (Axis == 1 ? dims->y : dims->z));
}

template <typename Row>
struct Column {
  const char* name;
  std::string_view sql;  // its type and constraints, as CREATE TABLE states them
  Cell (*get)(const Row&);
  // What a loaded value must keep; empty where nothing checks it by rule (text
  // columns; the devices' columns, which TraceFile::devices() reads itself).
  std::optional<Rule> rule;
  std::int64_t low = 0, high = 0;  // the codes an enum rule accepts
  std::string_view comment = {};  // kept in the file's schema text, after the column
  // The schema 1.x that added the column: files of older versions lack it and
  // the loader reads it as NULL there. Any other missing column refuses the file.
  int since_minor = 0;
};

// How a table is created and written, besides its columns.
enum class LoadedWith : std::uint8_t { always, api_calls, syncs, ranges, trace_file };

struct TableOptions {
  // Width of the column-name field in the CREATE TABLE text; 0: the longest name
  // and one space. Only for keeping the text of tables that shipped with another.
  std::size_t name_width = 0;
  std::string_view after_columns = {};  // a table constraint, e.g. a primary key
  bool without_rowid = false;
  bool replace = false;   // a row of a key already written replaces it (INSERT OR REPLACE)
  bool chunked = false;   // written again in event_chunks (README, "Column chunks")
  // The schema 1.x that added the table: files of older versions lack it. `gpuprof
  // info` lists the tables in the order versions added them (event_tables()).
  int since_minor = 0;
  bool counted = true;  // its rows are events that `gpuprof info` counts; false: a description (devices)
  // What loads the table's rows into the model (load_trace_model, rows_to_load): always, the LoadOptions
  // flag of that name, or nothing (read by TraceFile: devices, links, the derived steps and gaps).
  LoadedWith loaded_with = LoadedWith::always;
};

// Specialised once per table in table_declarations.hpp: `name`, `columns`
// (std::array<Column<Row>, N>) and `options`.
template <typename Row>
struct TableDeclaration;

template <typename Row>
inline constexpr int kColumnCount = static_cast<int>(TableDeclaration<Row>::columns.size());

template <typename Row>
std::string create_table_sql() {
  using Table = TableDeclaration<Row>;
  constexpr const auto& columns = Table::columns;
  std::size_t width = Table::options.name_width;
  if (width == 0) {
    for (const auto& column : columns) width = std::max(width, std::string_view(column.name).size() + 1);
  }
  std::string sql = "CREATE TABLE " + std::string(Table::name) + " (\n";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const std::string_view name = columns[i].name;
    sql += "  " + std::string(name) + std::string(width > name.size() ? width - name.size() : 1, ' ');
    sql += columns[i].sql;
    if (i + 1 < columns.size() || !Table::options.after_columns.empty()) sql += ",";
    if (!columns[i].comment.empty()) sql += "  -- " + std::string(columns[i].comment);
    sql += "\n";
  }
  if (!Table::options.after_columns.empty()) sql += "  " + std::string(Table::options.after_columns) + "\n";
  sql += Table::options.without_rowid ? ") WITHOUT ROWID" : ")";
  return sql;
}

// An INSERT of `rows` rows, every column a parameter.
template <typename Row>
std::string insert_sql(std::size_t rows) {
  using Table = TableDeclaration<Row>;
  std::string one_row = "(?";
  for (int column = 1; column < kColumnCount<Row>; ++column) one_row += ", ?";
  one_row += ")";
  std::string sql = std::string(Table::options.replace ? "INSERT OR REPLACE INTO " : "INSERT INTO ") +
                    std::string(Table::name) + " VALUES " + one_row;
  for (std::size_t row = 1; row < rows; ++row) sql += ", " + one_row;
  return sql;
}

// A sink binds integers and NULLs (sqlite::Statement, ChunkRowSink) and text
// where it can hold text (sqlite::Statement). Always inlined: the cell's kind is
// then known where the member is not optional, and the row binds as a
// hand-written one did (as a call per column it cost 430 instructions a kernel row).
template <typename Sink>
[[gnu::always_inline]] inline void bind_cell(Sink& sink, int index, const Cell& cell) {
  switch (cell.kind) {
    case Cell::Kind::null: sink.bind_null(index); return;
    case Cell::Kind::integer: sink.bind(index, cell.integer); return;
    case Cell::Kind::text:
      if constexpr (requires { sink.bind(index, cell.text); }) {
        sink.bind(index, cell.text);
        return;
      } else {
        // Chunked tables hold integer columns only (checked in table_declarations.hpp).
        throw std::logic_error("a text value bound where only integers fit");
      }
  }
}

namespace detail {
template <typename Row, std::size_t I, typename Sink>
[[gnu::always_inline]] inline void bind_column(Sink& sink, int first, const Row& row) {
  // A constant function pointer: the call is inlined, as a hand-written bind was.
  constexpr auto get = TableDeclaration<Row>::columns[I].get;
  bind_cell(sink, first + static_cast<int>(I), get(row));
}
template <typename Row, typename Sink, std::size_t... I>
void bind_columns(Sink& sink, int first, const Row& row, std::index_sequence<I...>) {
  (bind_column<Row, I>(sink, first, row), ...);
}
}  // namespace detail

// Binds every column of `row` to parameters first, first + 1, ... in schema
// order, so the same code fills single-row and multi-row INSERTs and the
// column chunks.
template <typename Sink, typename Row>
void bind_row(Sink& sink, int first, const Row& row) {
  detail::bind_columns(sink, first, row, std::make_index_sequence<TableDeclaration<Row>::columns.size()>{});
}

template <typename Row>
constexpr std::size_t checked_column_count() {
  std::size_t count = 0;
  for (const auto& column : TableDeclaration<Row>::columns) count += column.rule ? 1 : 0;
  return count;
}

// The rules of the checked columns, by column position (SELECT * order).
template <typename Row>
constexpr auto make_column_rules() {
  std::array<ColumnRule, checked_column_count<Row>()> rules{};
  std::size_t at = 0;
  int position = 0;
  for (const auto& column : TableDeclaration<Row>::columns) {
    if (column.rule) rules[at++] = ColumnRule{position, column.name, *column.rule, column.low, column.high};
    ++position;
  }
  return rules;
}
template <typename Row>
inline constexpr auto kColumnRules = make_column_rules<Row>();

// Whether every column is stored as an integer (what a column chunk can hold).
template <typename Row>
constexpr bool integer_columns_only() {
  for (const auto& column : TableDeclaration<Row>::columns) {
    if (!column.sql.starts_with("INTEGER")) return false;
  }
  return true;
}

}  // namespace gpuprof::trace
