#pragma once

// A read-only view of one drawable lane: events sorted by start, given as
// start/end columns of an analyzer table, either a contiguous slice or picked
// through an index of rows. No event is ever copied for drawing.

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace gpuprof::gui {

struct LaneView {
  const std::int64_t* start = nullptr;  // table columns, from the table's first row
  const std::int64_t* end = nullptr;
  const std::uint32_t* index = nullptr;  // rows of the table, or null for rows [first_row, first_row + size)
  std::size_t size = 0;
  std::int64_t max_duration = 0;  // longest event: bounds how far back a visible event may start
  std::size_t first_row = 0;

  // The table row of position i: what names, colours and details are looked up by.
  std::size_t row(std::size_t i) const { return index ? index[i] : first_row + i; }
  std::int64_t start_at(std::size_t i) const { return start[row(i)]; }
  std::int64_t end_at(std::size_t i) const { return end[row(i)]; }

  // First position whose start is >= t, searching [from, size).
  std::size_t lower_bound_start(std::int64_t t, std::size_t from = 0) const {
    std::size_t lo = from, hi = size;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (start_at(mid) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // First position that may overlap [t, ...): nothing before it ends after t.
  std::size_t first_ending_after(std::int64_t t) const {
    std::size_t i = lower_bound_start(t > INT64_MIN + max_duration ? t - max_duration : t);
    while (i < size && end_at(i) <= t) ++i;
    return i;
  }
};

}  // namespace gpuprof::gui
