#pragma once

// Step boundary lines on the timeline: where each GPU's step windows start,
// on the aligned clock, across that GPU's rows (its compact row in compact
// mode); and, for a job, the reference rank's boundaries across every rank
// as dashed lines, so a rank whose steps run early or late shows at a glance.

#include <QLineF>

#include <vector>

#include "gpuprof/gui/timeline_layout.hpp"

namespace gpuprof::gui {

struct StepBoundary {
  QLineF line;                // widget coordinates
  std::size_t rank = 0;       // index into Session::ranks
  std::int32_t device = 0;
  std::int64_t step = 0;
  bool reference = false;     // the reference GPU's boundary drawn across the whole timeline
};

// Closer than this to the previous boundary of the same GPU, a boundary is not drawn (zoomed far out).
inline constexpr double kMinBoundaryGapPx = 4.0;

// The boundaries inside the view, for rows of the area asked for (pinned or scrolling) that lie in
// [top, bottom) of the widget.
std::vector<StepBoundary> step_boundaries(const Session& session, const TimelineLayout& layout, const TimeAxis& axis,
                                          int scroll_y, bool pinned, int top, int bottom);

}  // namespace gpuprof::gui
