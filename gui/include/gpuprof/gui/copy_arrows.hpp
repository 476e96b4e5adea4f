#pragma once

// Arrows for peer-to-peer copies: from the source GPU's row where the copy
// starts to the destination GPU's row where it ends, on the rank's aligned
// clock. Drawn when both GPUs' rows are shown and the copy is at least a
// pixel wide; arrows of one GPU pair that start within a few pixels of each
// other merge into one that counts them (as Tracy merges dense zones).

#include <QPointF>

#include <vector>

#include "gpuprof/gui/timeline_layout.hpp"

namespace gpuprof::gui {

struct CopyArrow {
  QPointF from, to;  // widget coordinates: source row at the first copy's start, destination row at the last end
  std::size_t rank = 0;
  std::int32_t src_device = 0, dst_device = 0;
  int count = 1;  // copies merged into this arrow
};

inline constexpr double kMinCopyPx = 1.0;    // narrower copies get no arrow
inline constexpr double kArrowMergePx = 6.0;  // arrows of one pair starting closer than this merge

// The arrows of the copies inside the view, merged.
std::vector<CopyArrow> copy_arrows(const Session& session, const TimelineLayout& layout, const TimeAxis& axis,
                                   int scroll_y);

// Merges arrows of the same rank and GPU pair whose starts lie within `merge_px` of the arrow before them
// (`arrows` in start order per pair, as copy_arrows collects them).
std::vector<CopyArrow> merge_close_arrows(std::vector<CopyArrow> arrows, double merge_px = kArrowMergePx);

}  // namespace gpuprof::gui
