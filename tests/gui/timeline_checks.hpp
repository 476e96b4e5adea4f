#pragma once

// What a timeline screenshot shows, checked on the drawing model the painter draws from (the layout's rows,
// label_column_texts, step_and_gap_labels, step_boundaries, gap_bands, copy_arrows) and on the rendered image:
// each function returns one line per problem, empty when everything is in place (issue 41, item 6).

#include <QImage>

#include <string>

#include "gpuprof/gui/timeline_view.hpp"

namespace gpuprof::gui::testing {

// Rows in order (pinned ones first; a rank's rows together, ranks in order, a GPU's streams under it) and
// apart (none over the one above it), each with a height, all inside the layout's height.
std::string row_order_problems(const TimelineView& view);
// The label column's texts: one per row on screen, in the column, inside its row, as tall as a line of text
// and over no other label.
std::string row_label_problems(const TimelineView& view);
// Each step label over its step of its GPU and naming it; each gap label over a gap of its GPU.
std::string interval_label_problems(const TimelineView& view);
// Step boundary lines at their steps' starts across their GPU's rows (the reference's across the area), gap
// bands over their gaps across their GPU's rows, copy arrows from a peer copy's start on the source GPU's row
// to a copy's end on the destination's.
std::string overlay_problems(const TimelineView& view);
// The image shows each label where the model places it: ink of the label's colour inside its rectangle.
std::string ink_problems(const TimelineView& view, const QImage& image);
// All of the above, for a view rendered into `image` at its own size.
std::string timeline_layout_problems(const TimelineView& view, const QImage& image);

}  // namespace gpuprof::gui::testing
