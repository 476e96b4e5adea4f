#pragma once

// What the loader accepts in each column of a trace table. A file is input
// from anywhere: every id, enum and time is checked before the model uses it
// as an index or subtracts it, and a row that breaks a rule is left out and
// counted (load.invalid.<table>.<column>), never trusted.

#include <cstdint>
#include <span>
#include <vector>

struct sqlite3_stmt;

namespace gpuprof::trace {

enum class Rule : std::uint8_t {
  integer_or_null,    // any integer, or NULL (unknown)
  int32_or_null,      // fits int32, or NULL
  count_or_null,      // >= 0, or NULL
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

// The first rule `row` breaks, or nullptr when it keeps them all.
// `strings_present[id]` says whether string `id` exists. A column the row does
// not have (an older minor version) reads as NULL.
const ColumnRule* broken_rule(sqlite3_stmt* row, std::span<const ColumnRule> rules,
                              const std::vector<std::uint8_t>& strings_present);

// Why a row breaking `rule` was left out, for the counted problem's detail.
const char* describe(Rule rule);

// Rules per table, by column position in the table (SELECT * order).
std::span<const ColumnRule> kernel_rules(bool launch_details);
std::span<const ColumnRule> memcpy_rules();
std::span<const ColumnRule> memset_rules();
std::span<const ColumnRule> api_call_rules();
std::span<const ColumnRule> sync_rules();
std::span<const ColumnRule> range_rules();
std::span<const ColumnRule> step_rules();
std::span<const ColumnRule> gap_rules();

}  // namespace gpuprof::trace
