#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <numeric>
#include <type_traits>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::trace {

// Reorders every column of a table by `order` (order[i] = old index of new row
// i): each column is gathered into one scratch buffer, then copied back. New
// memory costs more than copying here (the kernel zeroes every new page: a
// third of a large report's CPU), so one buffer serves every column instead of
// a new column per column. Not an in-place walk of the permutation's cycles:
// that chases one dependent index after another and measured 5x slower on 5 M
// shuffled kernel rows, where the gather's reads overlap.
template <typename Table>
void apply_order(Table& table, const std::vector<std::uint32_t>& order) {
  // 8-byte words, aligned for every column type; left uninitialized, since every word used is written first.
  std::unique_ptr<std::int64_t[]> scratch;
  std::size_t scratch_words = 0;
  table.visit_columns([&order, &scratch, &scratch_words](auto& column) {
    if (column.empty()) return;  // a column that was not loaded
    using Value = typename std::decay_t<decltype(column)>::value_type;
    static_assert(std::is_trivially_copyable_v<Value> && alignof(Value) <= alignof(std::int64_t));
    const std::size_t words = (order.size() * sizeof(Value) + sizeof(std::int64_t) - 1) / sizeof(std::int64_t);
    if (scratch_words < words) scratch = std::make_unique_for_overwrite<std::int64_t[]>(scratch_words = words);
    auto* gathered = reinterpret_cast<Value*>(scratch.get());
    for (std::size_t row = 0; row < order.size(); ++row) gathered[row] = column[order[row]];
    std::copy(gathered, gathered + order.size(), column.begin());
  });
}

// Sorts a host table by start time, stably. Traces arrive nearly sorted (each
// thread's records are appended in order), so the rows that keep the running
// maximum stay as they are and only the few others are sorted and merged in:
// O(n + k log k) for k rows out of place, O(n log n) at worst.
template <typename Table>
void sort_by_start(Table& table) {
  const auto& start = table.start_ns;
  if (std::is_sorted(start.begin(), start.end())) return;
  const auto rows = static_cast<std::uint32_t>(start.size());
  std::vector<bool> out_of_place(rows);
  std::vector<std::uint32_t> out_of_order;
  for (std::uint32_t row = 0, last_in_order = 0; row < rows; ++row) {
    if (row > 0 && start[row] < start[last_in_order]) {
      out_of_place[row] = true;
      out_of_order.push_back(row);
    } else {
      last_in_order = row;
    }
  }
  // Ties keep the file's order, as a stable sort would.
  const auto before = [&start](std::uint32_t a, std::uint32_t b) {
    return start[a] < start[b] || (start[a] == start[b] && a < b);
  };
  std::sort(out_of_order.begin(), out_of_order.end(), before);
  std::vector<std::uint32_t> order;
  order.reserve(rows);
  auto next = out_of_order.begin();
  for (std::uint32_t row = 0; row < rows; ++row) {
    if (out_of_place[row]) continue;
    for (; next != out_of_order.end() && before(*next, row); ++next) order.push_back(*next);
    order.push_back(row);
  }
  order.insert(order.end(), next, out_of_order.end());
  apply_order(table, order);
}

// Sorts memory events by (device, time), stably: an alloc and a free at the
// same time keep the order the source gave them.
void sort_by_device_time(MemoryEventTable& table);

// Sorts thread states by (thread, start), stably, and leaves out each stretch
// that starts before the previous kept stretch of its thread ends: a thread is
// on a CPU or off it, never both. Returns the stretches left out.
std::int64_t sort_thread_states_apart(ThreadStateTable& table);

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
