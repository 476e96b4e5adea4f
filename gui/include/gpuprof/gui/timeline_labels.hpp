#pragma once

// The texts the timeline writes over its GPU rows, placed before anything is drawn: each step's number and
// length in its GPU's row and each batch gap's cause and length. A gap's label goes in the row under its
// GPU's row, where the GPU is idle for the whole gap, so no step label and no event is under it; a GPU shown
// as one row (compact mode, a collapsed GPU) has no step labels, and its gap labels go in that row. The
// painter draws these rectangles and a test checks them, so what is drawn is what is checked.

#include <QFontMetrics>

#include <vector>

#include "gpuprof/gui/session.hpp"
#include "gpuprof/gui/time_axis.hpp"
#include "gpuprof/gui/timeline_layout.hpp"
#include "gpuprof/gui/waterfall_layout.hpp"

namespace gpuprof::gui {

// Labels of the rows of one area (pinned or not) between widget y `top` and `bottom`, in widget coordinates;
// each rectangle holds its whole (elided) text.
std::vector<ChartText> step_and_gap_labels(const Session& session, const TimelineLayout& layout, const TimeAxis& axis,
                                           int scroll_y, bool pinned, int top, int bottom,
                                           const QFontMetrics& metrics);

}  // namespace gpuprof::gui
