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
