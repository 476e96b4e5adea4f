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

TimelineLayout layout_timeline(const Session& session) {
  TimelineLayout layout;
  int y = 0;
  for (std::size_t rank = 0; rank < session.ranks.size(); ++rank) {
    layout.rows.push_back({rank, std::nullopt, y, kRankHeaderHeight});
    y += kRankHeaderHeight + kRowGap;
    const auto& rows = session.ranks[rank]->timeline.rows;
    for (std::size_t row = 0; row < rows.size(); ++row) {
      const int height = row_height(rows[row]);
      layout.rows.push_back({rank, row, y, height});
      y += height + kRowGap;
    }
  }
  layout.height = y;
  return layout;
}

}  // namespace gpuprof::gui
