#include "gpuprof/trace/stream_order_placement.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace gpuprof::trace {

StreamOrderPlacement::StreamOrderPlacement(const GpuColumns& sorted, std::span<const StreamSlice> slices)
    : table_(&sorted), slices_(slices) {
  cursor_.reserve(slices.size());
  for (const auto& slice : slices) cursor_.push_back(slice.begin);
}

std::optional<std::size_t> StreamOrderPlacement::slice_of(std::int32_t device, std::int64_t stream) {
  // Rows come in runs of one stream: the last slice is the usual answer.
  const auto key = std::pair(device, stream);
  if (last_slice_ < slices_.size() && std::pair(slices_[last_slice_].device, slices_[last_slice_].stream) == key) {
    return last_slice_;
  }
  // The loader lays the slices out in (device, stream) order.
  const auto found = std::lower_bound(slices_.begin(), slices_.end(), key, [](const StreamSlice& slice, const auto& k) {
    return std::pair(slice.device, slice.stream) < k;
  });
  if (found == slices_.end() || std::pair(found->device, found->stream) != key) return std::nullopt;
  return last_slice_ = static_cast<std::size_t>(found - slices_.begin());
}

std::optional<std::size_t> StreamOrderPlacement::place(std::int32_t device, std::int64_t stream,
                                                       std::int64_t start_ns, std::int64_t end_ns) {
  const auto slice_index = slice_of(device, stream);
  if (!slice_index) return std::nullopt;
  const auto& slice = slices_[*slice_index];
  if (parent_.empty()) {
    // Every row before the cursor is placed, so the cursor is the first free row of the stream.
    auto& cursor = cursor_[*slice_index];
    if (cursor < slice.end && table_->start_ns[cursor] == start_ns) {
      if (table_->end_ns[cursor] != end_ns) return std::nullopt;
      ++placed_;
      return cursor++;
    }
    search_from_now_on();
  }
  const auto starts = table_->start_ns.begin();
  const auto first_at_start = static_cast<std::size_t>(
      std::lower_bound(starts + static_cast<std::ptrdiff_t>(slice.begin), starts + static_cast<std::ptrdiff_t>(slice.end),
                       start_ns) -
      starts);
  // Rows of equal start keep the file's order (the stable sort), so the next file row takes the first free one.
  const std::size_t row = next_free(first_at_start);
  if (row >= slice.end || table_->start_ns[row] != start_ns || table_->end_ns[row] != end_ns) return std::nullopt;
  parent_[row] = static_cast<std::uint32_t>(row + 1);
  ++placed_;
  return row;
}

std::size_t StreamOrderPlacement::next_free(std::size_t row) {
  std::size_t root = row;
  while (parent_[root] != root) root = parent_[root];
  while (parent_[row] != root) row = std::exchange(parent_[row], static_cast<std::uint32_t>(root));
  return root;
}

void StreamOrderPlacement::search_from_now_on() {
  // One more entry than rows: the end, which is never placed.
  parent_.resize(table_->size() + 1);
  std::iota(parent_.begin(), parent_.end(), 0U);
  for (std::size_t slice = 0; slice < slices_.size(); ++slice) {
    for (std::size_t row = slices_[slice].begin; row < cursor_[slice]; ++row) {
      parent_[row] = static_cast<std::uint32_t>(cursor_[slice]);
    }
  }
}

}  // namespace gpuprof::trace
