#include "gpuprof/trace/trace_sorting.hpp"

#include <algorithm>
#include <limits>
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

void StreamsOfRows::add_run(std::int32_t device, std::int64_t stream, std::size_t rows) {
  const std::pair key{device, stream};
  if (keys.empty() || keys[last_] != key) {
    const auto [found, inserted] = index_.try_emplace(key, static_cast<std::uint32_t>(keys.size()));
    if (inserted) keys.push_back(key);
    last_ = found->second;
  }
  constexpr std::size_t kMaxRun = std::numeric_limits<std::uint32_t>::max();
  if (!runs.empty() && runs.back().key == last_) {
    const auto more = std::min(rows, kMaxRun - runs.back().rows);
    runs.back().rows += static_cast<std::uint32_t>(more);
    rows -= more;
  }
  for (; rows > 0; rows -= std::min(rows, kMaxRun)) {
    runs.push_back({last_, static_cast<std::uint32_t>(std::min(rows, kMaxRun))});
  }
}

bool StreamOrder::identity() const {
  if (!rows.empty()) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (rows[i] != i) return false;
    }
    return true;
  }
  return std::all_of(blocks.begin(), blocks.end(), [](const RowBlock& block) { return block.from == block.to; });
}

namespace {

// Whether each stream's runs, one after another, are in start order: then whole runs move.
bool runs_in_start_order(const StreamsOfRows& streams, const std::vector<std::int64_t>& start_ns) {
  constexpr auto kNone = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> last_row(streams.keys.size(), kNone);
  std::size_t from = 0;
  for (const auto& run : streams.runs) {
    const auto first = start_ns.begin() + static_cast<std::ptrdiff_t>(from);
    if (last_row[run.key] != kNone && *first < start_ns[last_row[run.key]]) return false;
    if (!std::is_sorted(first, first + run.rows)) return false;
    from += run.rows;
    last_row[run.key] = from - 1;
  }
  return true;
}

}  // namespace

std::vector<StreamSlice> group_streams(const StreamsOfRows& streams, const std::vector<std::int64_t>& start_ns,
                                       StreamOrder& order) {
  std::vector<std::size_t> group_sizes(streams.keys.size());
  for (const auto& run : streams.runs) group_sizes[run.key] += run.rows;
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
  order.blocks.clear(), order.rows.clear();
  order.blocks.reserve(streams.runs.size());
  std::size_t from = 0;
  for (const auto& run : streams.runs) {
    order.blocks.push_back({from, cursor[run.key], run.rows});
    cursor[run.key] += run.rows, from += run.rows;
  }
  std::sort(order.blocks.begin(), order.blocks.end(),
            [](const RowBlock& a, const RowBlock& b) { return a.to < b.to; });
  if (runs_in_start_order(streams, start_ns)) return slices;
  // Some stream is out of start order: each row's place, each such stream sorted.
  order.rows.resize(from);
  for (const auto& block : order.blocks) {
    for (std::size_t k = 0; k < block.rows; ++k) order.rows[block.to + k] = static_cast<std::uint32_t>(block.from + k);
  }
  order.blocks.clear();
  for (const auto& slice : slices) {
    const auto first = order.rows.begin() + static_cast<std::ptrdiff_t>(slice.begin);
    const auto last = order.rows.begin() + static_cast<std::ptrdiff_t>(slice.end);
    const auto by_start = [&start_ns](std::uint32_t a, std::uint32_t b) { return start_ns[a] < start_ns[b]; };
    if (!std::is_sorted(first, last, by_start)) std::stable_sort(first, last, by_start);
  }
  return slices;
}

}  // namespace gpuprof::trace
