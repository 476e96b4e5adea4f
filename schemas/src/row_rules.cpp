#include "row_rules.hpp"

#include "event_chunks.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <limits>

namespace gpuprof::trace {
namespace {

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kInt32Min = std::numeric_limits<std::int32_t>::min();

bool within(std::int64_t value, std::int64_t low, std::int64_t high) { return value >= low && value <= high; }

template <typename Values>
bool keeps(const Values& row, const ColumnRule& rule, const std::vector<std::uint8_t>& strings_present) {
  const int type = row.type(rule.column);
  const bool null = type == RowValues::kNull;
  // Text, real or blob in an integer column would be read as a made-up number.
  if (!null && type != RowValues::kInteger) return false;
  const std::int64_t value = row.i64(rule.column);
  const auto string_exists = [&] {
    return value >= 0 && static_cast<std::uint64_t>(value) < strings_present.size() &&
           strings_present[static_cast<std::size_t>(value)] != 0;
  };
  switch (rule.rule) {
    case Rule::integer: return !null;
    case Rule::integer_or_null: return true;
    case Rule::int32_or_null: return null || within(value, kInt32Min, kInt32Max);
    case Rule::count: return !null && value >= 0;
    case Rule::count_or_null: return null || value >= 0;
    case Rule::positive_or_null: return null || value >= 1;
    case Rule::device: return !null && within(value, 0, kInt32Max);
    case Rule::device_or_null: return null || within(value, 0, kInt32Max);
    case Rule::time: return !null && value >= 0;
    case Rule::end_time:
      return !null && row.type(rule.column - 1) == RowValues::kInteger && value >= row.i64(rule.column - 1);
    case Rule::string_id: return !null && string_exists();
    case Rule::string_id_or_null: return null || string_exists();
    case Rule::enum_value: return !null && within(value, rule.low, rule.high);
    case Rule::enum_or_null: return null || within(value, rule.low, rule.high);
  }
  return false;
}

}  // namespace

static_assert(RowValues::kNull == SQLITE_NULL && RowValues::kInteger == SQLITE_INTEGER);

void RowValues::fetch(sqlite3_stmt* statement) {
  count_ = std::min(sqlite3_column_count(statement), kMaxColumns);
  for (int column = 0; column < count_; ++column) {
    // One API call per column; the value's type and integer are then plain reads.
    sqlite3_value* value = sqlite3_column_value(statement, column);
    type_[column] = sqlite3_value_type(value);
    value_[column] = type_[column] == SQLITE_INTEGER ? sqlite3_value_int64(value) : 0;
  }
}

template <typename Values>
const ColumnRule* broken_rule(const Values& row, std::span<const ColumnRule> rules,
                              const std::vector<std::uint8_t>& strings_present) {
  for (const auto& rule : rules) {
    if (!keeps(row, rule, strings_present)) return &rule;
  }
  return nullptr;
}

namespace {

// Whether every row keeps `rule`, for a column without NULLs: a range rule needs only the column's smallest
// and largest values, the others one plain loop each, where a row's check tests its type and picks its rule.
bool column_keeps(std::span<const std::int64_t> values, const std::int64_t* previous, const ColumnRule& rule,
                  const std::vector<std::uint8_t>& strings_present) {
  // Whether every value is in [low, high]: one unsigned comparison a value, with no branch and no chain.
  const auto in = [&](std::int64_t low, std::int64_t high) {
    if (high < low) return false;  // no value (an empty strings table): within() refuses every row too
    const auto width = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low);
    bool outside = false;
    for (const auto value : values) outside |= static_cast<std::uint64_t>(value) - static_cast<std::uint64_t>(low) > width;
    return !outside;
  };
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  switch (rule.rule) {
    case Rule::integer:
    case Rule::integer_or_null: return true;
    case Rule::int32_or_null: return in(kInt32Min, kInt32Max);
    case Rule::count:
    case Rule::count_or_null:
    case Rule::time: return in(0, kMax);
    case Rule::positive_or_null: return in(1, kMax);
    case Rule::device:
    case Rule::device_or_null: return in(0, kInt32Max);
    case Rule::enum_value:
    case Rule::enum_or_null: return in(rule.low, rule.high);
    case Rule::end_time: {
      if (previous == nullptr) return false;  // a start with NULLs: checked row by row
      bool kept = true;
      for (std::size_t at = 0; at < values.size(); ++at) kept &= values[at] >= previous[at];
      return kept;
    }
    case Rule::string_id:
    case Rule::string_id_or_null: {
      if (!in(0, static_cast<std::int64_t>(strings_present.size()) - 1)) return false;
      bool kept = true;
      for (const auto value : values) kept &= strings_present[static_cast<std::size_t>(value)] != 0;
      return kept;
    }
  }
  return false;
}

}  // namespace

bool every_row_keeps(const ChunkDecoder& decoder, std::span<const ColumnRule> rules,
                     const std::vector<std::uint8_t>& strings_present) {
  const auto rows = static_cast<std::size_t>(decoder.rows());
  for (const auto& rule : rules) {
    if (const auto* values = decoder.values_without_nulls(rule.column)) {
      if (!column_keeps({values, rows}, decoder.values_without_nulls(rule.column - 1), rule, strings_present)) {
        return false;
      }
      continue;
    }
    // A column with NULLs (or not stored, all NULL): each row as broken_rule checks it.
    bool kept = true;
    for (std::size_t at = 0; at < rows; ++at) kept &= keeps(ChunkRow(decoder, at), rule, strings_present);
    if (!kept) return false;
  }
  return true;
}

template const ColumnRule* broken_rule(const RowValues&, std::span<const ColumnRule>,
                                       const std::vector<std::uint8_t>&);
template const ColumnRule* broken_rule(const ChunkRow&, std::span<const ColumnRule>,
                                       const std::vector<std::uint8_t>&);

const char* describe(Rule rule) {
  switch (rule) {
    case Rule::integer: return "NULL or not an integer";
    case Rule::integer_or_null: return "not an integer";
    case Rule::int32_or_null: return "not a 32-bit integer";
    case Rule::count: return "negative, NULL or not an integer";
    case Rule::count_or_null: return "negative or not an integer";
    case Rule::positive_or_null: return "less than 1 or not an integer";
    case Rule::device:
    case Rule::device_or_null: return "not a device number";
    case Rule::time: return "negative, NULL or not an integer";
    case Rule::end_time: return "before the start, NULL or not an integer";
    case Rule::string_id:
    case Rule::string_id_or_null: return "names no row of the strings table";
    case Rule::enum_value:
    case Rule::enum_or_null: return "not one of the codes the schema defines";
  }
  return "not valid";
}

}  // namespace gpuprof::trace
