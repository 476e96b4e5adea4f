#pragma once

// What the loader reads of a declared table (table_declarations.hpp): its name,
// the columns it selects by name and the rules those columns keep, all from the
// one declaration, so that the loader cannot read a table under another name or
// its columns at other positions than the writer wrote them.

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

#include "row_rules.hpp"
#include "table_declarations.hpp"

namespace gpuprof::trace {

struct LoadedColumn {
  std::string_view name;
  bool later = false;  // added by a later minor version: reads as NULL in a file without it
};

template <typename Row>
constexpr auto make_loaded_columns() {
  std::array<LoadedColumn, TableDeclaration<Row>::columns.size()> loaded{};
  for (std::size_t i = 0; i < loaded.size(); ++i) {
    loaded[i] = {TableDeclaration<Row>::columns[i].name, TableDeclaration<Row>::columns[i].since_minor > 0};
  }
  return loaded;
}
template <typename Row>
inline constexpr auto kLoadedColumns = make_loaded_columns<Row>();

struct TableRead {
  std::string_view name;
  std::span<const LoadedColumn> columns;  // in schema order; the row readers index them by position
  std::span<const ColumnRule> rules;      // of those columns only
};

// The first `columns` columns of a table (all by default) and their rules.
template <typename Row>
constexpr TableRead table_read(std::size_t columns = TableDeclaration<Row>::columns.size()) {
  const std::span<const ColumnRule> all = kColumnRules<Row>;
  std::size_t rules = 0;
  while (rules < all.size() && static_cast<std::size_t>(all[rules].column) < columns) ++rules;
  return {TableDeclaration<Row>::name, std::span<const LoadedColumn>(kLoadedColumns<Row>).first(columns),
          all.first(rules)};
}

// The kernels' columns up to name_id: what the loader reads when launch details are not wanted.
constexpr TableRead kernel_summary_read() { return table_read<KernelRow>(TableDeclaration<KernelRow>::summary_columns); }

}  // namespace gpuprof::trace
