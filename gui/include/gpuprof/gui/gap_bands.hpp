#pragma once

// Batch gaps as the timeline shades them: each gap's time across its GPU's rows (the GPU's row and its
// streams, or its one row in compact mode or collapsed), on the rank's aligned clock. The painter fills these
// rectangles and the layout tests check them, so what is drawn is what is checked.

#include <QRectF>

#include <cstddef>
#include <vector>

#include "gpuprof/gui/timeline_layout.hpp"

namespace gpuprof::gui {

struct GapBand {
  QRectF rect;            // widget coordinates, kept a little beyond the plot at its ends as the painter clips
  std::size_t rank = 0;   // index into Session::ranks
  std::int32_t device = 0;
  std::size_t gap = 0;    // index into the rank's analysis.gaps
};

// The bands inside the view, for the GPUs of the area asked for (pinned or scrolling) whose rows reach widget
// y between the ruler and `bottom`.
std::vector<GapBand> gap_bands(const Session& session, const TimelineLayout& layout, const TimeAxis& axis,
                               int scroll_y, bool pinned, int bottom);

}  // namespace gpuprof::gui
