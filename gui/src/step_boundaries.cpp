#include "gpuprof/gui/step_boundaries.hpp"

#include <algorithm>

#include "gpuprof/gui/timeline_painter.hpp"

namespace gpuprof::gui {
namespace {

// Each step window's start on `device` of `rank` inside the view, thinned to kMinBoundaryGapPx apart.
void add_device(const Session& session, const TimelineLayout& layout, const TimeAxis& axis, std::size_t rank,
                std::int32_t device, double y0, double y1, bool reference, std::vector<StepBoundary>& out) {
  const auto rank_axis = layout.rank_axis(axis, rank);
  double previous = -1e300;
  for (const auto& entry : session.ranks[rank]->analysis.steps) {
    const auto& step = entry.step;
    if (step.device != device || step.start_ns < rank_axis.view_start() || step.start_ns > rank_axis.view_end()) {
      continue;
    }
    const double x = kLabelWidth + rank_axis.x_of(step.start_ns);
    if (x - previous < kMinBoundaryGapPx) continue;
    previous = x;
    out.push_back({QLineF(x, y0, x, y1), rank, device, step.step, reference});
  }
}

// Where the area's last row ends, or `bottom` when the rows go on below it: the reference lines stop there.
int rows_bottom(const TimelineLayout& layout, int scroll_y, bool pinned, int bottom) {
  int end = 0;
  for (const auto& place : layout.rows) {
    if (place.pinned == pinned) end = std::max(end, row_top(place, scroll_y) + place.height);
  }
  return std::min(end, bottom);
}

}  // namespace

std::vector<StepBoundary> step_boundaries(const Session& session, const TimelineLayout& layout, const TimeAxis& axis,
                                          int scroll_y, bool pinned, int top, int bottom) {
  std::vector<StepBoundary> out;
  std::optional<std::pair<std::size_t, std::int32_t>> reference;
  for (std::size_t i = 0; i < layout.rows.size(); ++i) {
    const auto& place = layout.rows[i];
    if (!place.row) continue;
    const auto& row = session.ranks[place.rank]->timeline.rows[*place.row];
    if (row.kind != RowKind::device) continue;
    // The first GPU of the first rank shown is the reference the others are read against.
    if (!reference) reference = std::pair{place.rank, row.device};
    if (place.pinned != pinned) continue;
    const auto& last = layout.rows[device_group_end(session, layout, i) - 1];
    const int y0 = row_top(place, scroll_y), y1 = row_top(last, scroll_y) + last.height;
    if (y1 < top || y0 > bottom) continue;
    add_device(session, layout, axis, place.rank, row.device, y0, y1, false, out);
  }
  if (reference && session.ranks.size() > 1) {
    const int end = rows_bottom(layout, scroll_y, pinned, bottom);
    add_device(session, layout, axis, reference->first, reference->second, top, end, true, out);
  }
  return out;
}

}  // namespace gpuprof::gui
