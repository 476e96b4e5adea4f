#pragma once

// A read-only view of one drawable lane: events sorted by start, given as
// start/end columns of an analyzer table, either a contiguous slice or picked
// through an index of rows. No event is ever copied for drawing.

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace gpuprof::gui {

class GapTree;

struct LaneView {
  const std::int64_t* start = nullptr;  // table columns, from the table's first row
  const std::int64_t* end = nullptr;
  const std::uint32_t* index = nullptr;  // rows of the table, or null for rows [first_row, first_row + size)
  std::size_t size = 0;
  std::int64_t max_duration = 0;  // longest event: bounds how far back a visible event may start
  std::size_t first_row = 0;
  // No event overlaps the next (each ends by the next one's start), so ends ascend too: searches by end
  // are binary and a run's last event ends it. Set only where checked (`summarise_lane`).
  bool disjoint = false;
  const GapTree* gaps = nullptr;  // of a disjoint lane, when built (its Lane keeps it)

  // The table row of position i: what names, colours and details are looked up by.
  std::size_t row(std::size_t i) const { return index ? index[i] : first_row + i; }
  std::int64_t start_at(std::size_t i) const { return start[row(i)]; }
  std::int64_t end_at(std::size_t i) const { return end[row(i)]; }

  // First position whose start is >= t, searching [from, to) (to = size when larger).
  std::size_t lower_bound_start(std::int64_t t, std::size_t from = 0, std::size_t to = SIZE_MAX) const {
    std::size_t lo = from, hi = std::min(to, size);
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (start_at(mid) < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // Same answer as lower_bound_start(t, from), probing from+1, from+2, from+4, ... first: when the answer
  // is k positions away this reads about 2·log2(k) starts near `from` instead of log2(size) far apart,
  // which is what a frame's many short searches need (each far probe is a cache miss).
  std::size_t gallop_start(std::int64_t t, std::size_t from) const {
    if (from >= size || start_at(from) >= t) return from;
    std::size_t below = from, step = 1;  // start_at(below) < t
    while (step < size - below && start_at(below + step) < t) {
      below += step;
      step *= 2;
    }
    return lower_bound_start(t, below + 1, below + step);
  }

  // First position that may overlap [t, ...): nothing before it ends after t.
  std::size_t first_ending_after(std::int64_t t) const {
    if (disjoint) {
      std::size_t lo = 0, hi = size;
      while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (end_at(mid) <= t) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    }
    std::size_t i = lower_bound_start(t > INT64_MIN + max_duration ? t - max_duration : t);
    while (i < size && end_at(i) <= t) ++i;
    return i;
  }
};

}  // namespace gpuprof::gui
