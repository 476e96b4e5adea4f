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

void StreamsOfRows::add(std::int32_t device, std::int64_t stream) {
  const std::pair key{device, stream};
  if (keys.empty() || keys[last_] != key) {
    const auto [found, inserted] = index_.try_emplace(key, static_cast<std::uint32_t>(keys.size()));
    if (inserted) keys.push_back(key);
    last_ = found->second;
  }
  of_row.push_back(last_);
}

std::vector<StreamSlice> group_streams(const StreamsOfRows& streams, const std::vector<std::int64_t>& start_ns,
                                       std::vector<std::uint32_t>& order) {
  const auto& of_row = streams.of_row;
  std::vector<std::size_t> group_sizes(streams.keys.size());
  for (const auto group : of_row) ++group_sizes[group];
  // Groups are laid out in (device, stream) order.
  std::vector<std::uint32_t> by_key(streams.keys.size());
  std::iota(by_key.begin(), by_key.end(), 0U);
  std::sort(by_key.begin(), by_key.end(),
            [&streams](std::uint32_t a, std::uint32_t b) { return streams.keys[a] < streams.keys[b]; });
  std::vector<std::size_t> cursor(group_sizes.size());
  std::vector<StreamSlice> slices;
  std::size_t offset = 0;
  for (const auto group : by_key) {
    cursor[group] = offset;
    slices.push_back({streams.keys[group].first, streams.keys[group].second, offset, offset + group_sizes[group]});
    offset += group_sizes[group];
  }
  order.assign(of_row.size(), 0);
  for (std::size_t i = 0; i < of_row.size(); ++i) order[cursor[of_row[i]]++] = static_cast<std::uint32_t>(i);
  for (const auto& slice : slices) {
    const auto first = order.begin() + static_cast<std::ptrdiff_t>(slice.begin);
    const auto last = order.begin() + static_cast<std::ptrdiff_t>(slice.end);
    const auto by_start = [&start_ns](std::uint32_t a, std::uint32_t b) { return start_ns[a] < start_ns[b]; };
    if (!std::is_sorted(first, last, by_start)) std::stable_sort(first, last, by_start);
  }
  return slices;
}

std::vector<StreamSlice> group_streams(const GpuColumns& table, std::vector<std::uint32_t>& order) {
  StreamsOfRows streams;
  streams.reserve(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) streams.add(table.device[i], table.stream[i]);
  return group_streams(streams, table.start_ns, order);
}

}  // namespace gpuprof::trace
