#include "gpuprof/gui/gap_bands.hpp"

#include <algorithm>

#include "gpuprof/gui/timeline_painter.hpp"

namespace gpuprof::gui {

std::vector<GapBand> gap_bands(const Session& session, const TimelineLayout& layout, const TimeAxis& axis,
                               int scroll_y, bool pinned, int bottom) {
  std::vector<GapBand> bands;
  for (std::size_t i = 0; i < layout.rows.size(); ++i) {
    const auto& place = layout.rows[i];
    const auto* row = device_row_at(session, layout, i);
    if (!row || place.pinned != pinned) continue;
    const auto& rank = *session.ranks[place.rank];
    const auto rank_axis = layout.rank_axis(axis, place.rank);
    const auto& last = layout.rows[device_group_end(session, layout, i) - 1];
    const int y0 = row_top(place, scroll_y), y1 = row_top(last, scroll_y) + last.height;
    if (y1 < kRulerHeight || y0 > bottom) continue;
    const auto& gaps = rank.analysis.gaps;
    for (std::size_t g = 0; g < gaps.size(); ++g) {
      const auto& gap = gaps[g];
      if (gap.device != row->device || gap.end_ns < rank_axis.view_start() || gap.start_ns > rank_axis.view_end())
        continue;
      // Clipped to a little beyond the view, as the events are: QPainter stays in int range at deep zoom.
      const double x0 = std::max(rank_axis.x_of(gap.start_ns), -2.0);
      const double x1 = std::min(rank_axis.x_of(gap.end_ns), axis.width() + 2.0);
      bands.push_back({QRectF(kLabelWidth + x0, y0, std::max(1.0, x1 - x0), y1 - y0), place.rank, row->device, g});
    }
  }
  return bands;
}

}  // namespace gpuprof::gui
