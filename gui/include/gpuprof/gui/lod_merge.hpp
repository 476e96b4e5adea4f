#pragma once

// Level of detail for one lane of the timeline: what to draw for the visible
// range. Events at least `min_px` wide are drawn one by one; runs of narrower
// events (with gaps under `min_px`) become one merged block. Each block costs a
// binary search, so a frame costs O(blocks · log n) whatever the zoom, never
// one step per event.

#include <cstdint>
#include <vector>

#include "gpuprof/gui/lane_view.hpp"
#include "gpuprof/gui/time_axis.hpp"

namespace gpuprof::gui {

struct DrawBlock {
  double x0 = 0, x1 = 0;        // pixels, unclipped
  std::uint32_t first = 0;      // position in the lane of the first event
  std::uint32_t count = 0;      // events merged into this block (1: a single event)
  std::int64_t start_ns = 0, end_ns = 0;
  bool merged() const { return count > 1; }
  friend bool operator==(const DrawBlock&, const DrawBlock&) = default;
};

inline constexpr double kMinVisiblePx = 3.0;

// Blocks of `lane` inside the axis' view, left to right. `out` is cleared first.
void merge_visible(const LaneView& lane, const TimeAxis& axis, std::vector<DrawBlock>& out,
                   double min_px = kMinVisiblePx);

// Position of the event under time t (or the nearest within `tolerance_ns`), or size when none.
std::size_t find_event_at(const LaneView& lane, std::int64_t t, std::int64_t tolerance_ns);

}  // namespace gpuprof::gui
