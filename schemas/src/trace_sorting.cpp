#include "gpuprof/trace/trace_sorting.hpp"

#include <map>
#include <utility>

namespace gpuprof::trace {

void sort_by_device_time(MemoryEventTable& table) {
  const auto before = [&table](std::uint32_t a, std::uint32_t b) {
    return std::pair(table.device[a], table.time_ns[a]) < std::pair(table.device[b], table.time_ns[b]);
  };
  std::vector<std::uint32_t> order(table.size());
  std::iota(order.begin(), order.end(), 0U);
  if (std::is_sorted(order.begin(), order.end(), before)) return;
  std::stable_sort(order.begin(), order.end(), before);
  apply_order(table, order);
}

std::int64_t sort_thread_states_apart(ThreadStateTable& table) {
  const auto key = [&table](std::uint32_t row) { return std::pair(table.thread_id[row], table.start_ns[row]); };
  std::vector<std::uint32_t> order(table.size());
  std::iota(order.begin(), order.end(), 0U);
  std::stable_sort(order.begin(), order.end(), [&key](std::uint32_t a, std::uint32_t b) { return key(a) < key(b); });
  std::vector<std::uint32_t> kept;
  kept.reserve(order.size());
  for (const auto row : order) {
    const bool overlaps = !kept.empty() && table.thread_id[kept.back()] == table.thread_id[row] &&
                          table.start_ns[row] < table.end_ns[kept.back()];
    if (!overlaps) kept.push_back(row);
  }
  const auto left_out = static_cast<std::int64_t>(order.size() - kept.size());
  apply_order(table, kept);
  table.visit_columns([&kept](auto& column) {
    if (!column.empty()) column.resize(kept.size());
  });
  return left_out;
}

std::vector<StreamSlice> group_streams(const GpuColumns& table, std::vector<std::uint32_t>& order) {
  const std::size_t rows = table.size();
  // Streams are few (tens), so a sorted map from key to group is cheap; the
  // last-hit cache skips the lookup for runs of rows on the same stream.
  std::map<std::pair<std::int32_t, std::int64_t>, std::uint32_t> group_of_key;
  std::vector<std::uint32_t> group_of_row(rows);
  std::vector<std::size_t> group_sizes;
  std::pair<std::int32_t, std::int64_t> last_key{kUnknown32, kUnknown};
  std::uint32_t last_group = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    const std::pair key{table.device[i], table.stream[i]};
    if (i == 0 || key != last_key) {
      auto [found, inserted] = group_of_key.try_emplace(key, static_cast<std::uint32_t>(group_sizes.size()));
      if (inserted) group_sizes.push_back(0);
      last_key = key;
      last_group = found->second;
    }
    group_of_row[i] = last_group;
    ++group_sizes[last_group];
  }
  // Groups are laid out in (device, stream) order: the map iterates sorted.
  std::vector<std::size_t> group_begin(group_sizes.size());
  std::vector<StreamSlice> slices;
  std::size_t offset = 0;
  for (const auto& [key, group] : group_of_key) {
    group_begin[group] = offset;
    slices.push_back({key.first, key.second, offset, offset + group_sizes[group]});
    offset += group_sizes[group];
  }
  order.assign(rows, 0);
  std::vector<std::size_t> cursor = group_begin;
  for (std::size_t i = 0; i < rows; ++i) order[cursor[group_of_row[i]]++] = static_cast<std::uint32_t>(i);
  const auto& start = table.start_ns;
  for (const auto& slice : slices) {
    const auto first = order.begin() + static_cast<std::ptrdiff_t>(slice.begin);
    const auto last = order.begin() + static_cast<std::ptrdiff_t>(slice.end);
    const auto by_start = [&start](std::uint32_t a, std::uint32_t b) { return start[a] < start[b]; };
    if (!std::is_sorted(first, last, by_start)) std::stable_sort(first, last, by_start);
  }
  return slices;
}

}  // namespace gpuprof::trace
