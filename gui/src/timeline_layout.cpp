#include "gpuprof/gui/timeline_layout.hpp"

#include <algorithm>

namespace gpuprof::gui {
namespace {

int row_height(const TimelineRow& row) {
  switch (row.kind) {
    case RowKind::device: return kDeviceRowHeight;
    case RowKind::stream: return kStreamRowHeight;
    case RowKind::host_thread: return kHostLaneHeight * std::max<int>(1, static_cast<int>(row.lanes.size()));
  }
  return kStreamRowHeight;
}

}  // namespace

const LayoutRow* TimelineLayout::row_at(int y) const {
  const auto it = std::upper_bound(rows.begin(), rows.end(), y, [](int value, const LayoutRow& row) {
    return value < row.y;
  });
  if (it == rows.begin()) return nullptr;
  const LayoutRow& row = *std::prev(it);
  return y < row.y + row.height ? &row : nullptr;
}

const LayoutRow* TimelineLayout::find(std::size_t rank, std::size_t row) const {
  for (const auto& entry : rows) {
    if (entry.rank == rank && entry.row == row) return &entry;
  }
  return nullptr;
}

TimeAxis TimelineLayout::rank_axis(const TimeAxis& axis, std::size_t rank) const {
  return rank < clock_offset_ns.size() ? axis.shifted(clock_offset_ns[rank]) : axis;
}

namespace {

// A device row with no stream rows after it: the GPU ran no kernel, copy or memset.
bool idle_device(const std::vector<TimelineRow>& rows, std::size_t row) {
  return rows[row].kind == RowKind::device &&
         (row + 1 == rows.size() || rows[row + 1].kind != RowKind::stream || rows[row + 1].device != rows[row].device);
}

// Device rows only; the painter draws each GPU's streams inside its row.
void add_compact_rows(const LoadedRank& rank, std::size_t index, const LayoutOptions& options, TimelineLayout& layout,
                      int& y) {
  const auto& rows = rank.timeline.rows;
  int hidden = 0;
  for (std::size_t row = 0; row < rows.size(); ++row) {
    if (rows[row].kind != RowKind::device) continue;
    if (!options.show_idle_devices && idle_device(rows, row)) {
      ++hidden;
      continue;
    }
    layout.rows.push_back({index, row, y, kCompactRowHeight});
    y += kCompactRowHeight + kCompactRowGap;
  }
  layout.hidden_devices.push_back(hidden);
}

void add_rank_rows(const LoadedRank& rank, std::size_t index, const LayoutOptions& options, TimelineLayout& layout,
                   int& y) {
  if (options.compact) {
    add_compact_rows(rank, index, options, layout, y);
    return;
  }
  layout.rows.push_back({index, std::nullopt, y, kRankHeaderHeight});
  y += kRankHeaderHeight + kRowGap;
  const auto& rows = rank.timeline.rows;
  int hidden = 0;
  for (std::size_t row = 0; row < rows.size(); ++row) {
    if (!options.show_idle_devices && idle_device(rows, row)) {
      ++hidden;
      continue;
    }
    const int height = row_height(rows[row]);
    layout.rows.push_back({index, row, y, height});
    y += height + kRowGap;
  }
  layout.hidden_devices.push_back(hidden);
}

}  // namespace

TimelineLayout layout_timeline(const Session& session, const LayoutOptions& options) {
  TimelineLayout layout;
  layout.options = options;
  int y = 0;
  layout.start_ns = session.start_ns;
  layout.end_ns = session.end_ns;
  for (std::size_t rank = 0; rank < session.ranks.size(); ++rank) {
    const auto& loaded = *session.ranks[rank];
    add_rank_rows(loaded, rank, options, layout, y);
    const std::int64_t offset = options.raw_clocks ? 0 : session.job.clocks.offset_of(loaded.analysis.rank);
    layout.clock_offset_ns.push_back(offset);
    if (rank == 0 || loaded.timeline.start_ns + offset < layout.start_ns) layout.start_ns = loaded.timeline.start_ns + offset;
    if (rank == 0 || loaded.timeline.end_ns + offset > layout.end_ns) layout.end_ns = loaded.timeline.end_ns + offset;
  }
  layout.height = y;
  return layout;
}

}  // namespace gpuprof::gui
