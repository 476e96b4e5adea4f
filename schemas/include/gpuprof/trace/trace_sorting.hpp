#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::trace {

// Reorders every column of a table by `order` (order[i] = old index of new row i).
template <typename Table>
void apply_order(Table& table, const std::vector<std::uint32_t>& order) {
  table.visit_columns([&order](auto& column) {
    if (column.empty()) return;  // a column that was not loaded
    using Column = std::decay_t<decltype(column)>;
    Column reordered;
    reordered.reserve(column.size());
    for (const auto index : order) reordered.push_back(column[index]);
    column.swap(reordered);
  });
}

// Sorts a host table by start time. Traces usually arrive nearly sorted, so
// the check comes first and the permutation is built only when needed.
template <typename Table>
void sort_by_start(Table& table) {
  const auto& start = table.start_ns;
  if (std::is_sorted(start.begin(), start.end())) return;
  std::vector<std::uint32_t> order(start.size());
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(),
                   [&start](std::uint32_t a, std::uint32_t b) { return start[a] < start[b]; });
  apply_order(table, order);
}

// Groups a GPU table by (device, stream) and sorts each group by start; returns
// the groups. Linear bucketing with a per-group sortedness check keeps this
// near O(n) on the usual nearly-ordered input.
std::vector<StreamSlice> group_streams(const GpuColumns& table, std::vector<std::uint32_t>& order);

template <typename Table>
std::vector<StreamSlice> sort_by_device_stream_start(Table& table) {
  std::vector<std::uint32_t> order;
  auto slices = group_streams(table, order);
  bool identity = true;
  for (std::size_t i = 0; i < order.size() && identity; ++i) identity = order[i] == i;
  if (!identity) apply_order(table, order);
  return slices;
}

}  // namespace gpuprof::trace
