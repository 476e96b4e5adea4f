#pragma once

// Sets of time as sorted, disjoint, non-empty half-open intervals. Every
// operation walks its inputs once, so a device's whole timeline costs O(n).

#include <cstdint>
#include <vector>

namespace gpuprof::analysis {

struct Interval {
  std::int64_t start = 0, end = 0;
  friend bool operator==(const Interval&, const Interval&) = default;
};

// Sorted, disjoint, non-empty intervals.
using IntervalSet = std::vector<Interval>;

// Merges intervals that are already sorted by start (overlapping or touching
// ones become one); empty intervals are dropped.
IntervalSet merge_sorted(const std::vector<Interval>& sorted_by_start);
// Sorts first; for input of unknown order.
IntervalSet normalize(std::vector<Interval> intervals);

IntervalSet unite(const IntervalSet& a, const IntervalSet& b);
IntervalSet subtract(const IntervalSet& a, const IntervalSet& b);
IntervalSet intersect(const IntervalSet& a, const IntervalSet& b);

std::int64_t total_length(const IntervalSet& set);
// Length of the part of `set` inside [start, end); binary search, then linear in the covered part.
std::int64_t length_within(const IntervalSet& set, std::int64_t start, std::int64_t end);
// The part of `set` inside [start, end), by binary search: cheap for a short stretch of a long set.
IntervalSet clip(const IntervalSet& set, std::int64_t start, std::int64_t end);

// Answers length_within for queries whose starts never decrease, in amortised
// O(1) per query: the cursor only moves forward.
class OverlapCursor {
 public:
  explicit OverlapCursor(const IntervalSet& set) : set_(&set) {}
  std::int64_t length_within(std::int64_t start, std::int64_t end);

 private:
  const IntervalSet* set_;
  std::size_t first_ = 0;
};

}  // namespace gpuprof::analysis
