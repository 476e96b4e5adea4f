#include "gpuprof/analysis/interval_set.hpp"

#include <algorithm>

#include "gpuprof/analysis/run_sort.hpp"

namespace gpuprof::analysis {
namespace {

void append_merged(IntervalSet& out, const Interval& next) {
  if (next.end <= next.start) return;
  if (!out.empty() && next.start <= out.back().end) {
    out.back().end = std::max(out.back().end, next.end);
  } else {
    out.push_back(next);
  }
}

}  // namespace

IntervalSet merge_sorted(const std::vector<Interval>& sorted_by_start) {
  IntervalSet out;
  out.reserve(sorted_by_start.size());
  for (const auto& interval : sorted_by_start) append_merged(out, interval);
  return out;
}

IntervalSet normalize(std::vector<Interval> intervals) {
  sort_runs(intervals, [](const Interval& a, const Interval& b) { return a.start < b.start; });
  // Merged in place (what merge_sorted does, into the same array): a second array as large as the first
  // was the peak of memory for millions of host calls.
  std::size_t kept = 0;
  for (const auto next : intervals) {
    if (next.end <= next.start) continue;
    if (kept > 0 && next.start <= intervals[kept - 1].end) {
      intervals[kept - 1].end = std::max(intervals[kept - 1].end, next.end);
    } else {
      intervals[kept++] = next;
    }
  }
  intervals.resize(kept);
  if (kept < intervals.capacity() / 2) intervals.shrink_to_fit();  // the input's pages are not kept for a few sets
  return intervals;
}

IntervalSet unite(const IntervalSet& a, const IntervalSet& b) {
  IntervalSet out;
  out.reserve(a.size() + b.size());
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const bool take_a = j == b.size() || (i < a.size() && a[i].start <= b[j].start);
    append_merged(out, take_a ? a[i++] : b[j++]);
  }
  return out;
}

IntervalSet subtract(const IntervalSet& a, const IntervalSet& b) {
  IntervalSet out;
  out.reserve(a.size());
  std::size_t j = 0;
  for (const auto& interval : a) {
    std::int64_t cursor = interval.start;
    while (j < b.size() && b[j].end <= cursor) ++j;
    // b[k] for k >= j may still cut into the next interval of a, so j is not advanced past them.
    for (std::size_t k = j; k < b.size() && b[k].start < interval.end; ++k) {
      if (b[k].start > cursor) out.push_back({cursor, b[k].start});
      cursor = std::max(cursor, b[k].end);
      if (cursor >= interval.end) break;
    }
    if (cursor < interval.end) out.push_back({cursor, interval.end});
  }
  return out;
}

IntervalSet intersect(const IntervalSet& a, const IntervalSet& b) {
  IntervalSet out;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const std::int64_t start = std::max(a[i].start, b[j].start);
    const std::int64_t end = std::min(a[i].end, b[j].end);
    if (start < end) out.push_back({start, end});
    if (a[i].end < b[j].end) ++i; else ++j;
  }
  return out;
}

std::int64_t total_length(const IntervalSet& set) {
  std::int64_t sum = 0;
  for (const auto& interval : set) sum += interval.end - interval.start;
  return sum;
}

std::int64_t length_within(const IntervalSet& set, std::int64_t start, std::int64_t end) {
  auto it = std::upper_bound(set.begin(), set.end(), start,
                             [](std::int64_t value, const Interval& interval) { return value < interval.end; });
  std::int64_t sum = 0;
  for (; it != set.end() && it->start < end; ++it) sum += std::min(end, it->end) - std::max(start, it->start);
  return sum;
}

IntervalSet clip(const IntervalSet& set, std::int64_t start, std::int64_t end) {
  IntervalSet result;
  auto it = std::upper_bound(set.begin(), set.end(), start,
                             [](std::int64_t value, const Interval& interval) { return value < interval.end; });
  for (; it != set.end() && it->start < end; ++it) {
    const Interval part{std::max(it->start, start), std::min(it->end, end)};
    if (part.start < part.end) result.push_back(part);
  }
  return result;
}

std::int64_t OverlapCursor::length_within(std::int64_t start, std::int64_t end) {
  const auto& set = *set_;
  while (first_ < set.size() && set[first_].end <= start) ++first_;
  std::int64_t sum = 0;
  for (std::size_t k = first_; k < set.size() && set[k].start < end; ++k) {
    sum += std::min(end, set[k].end) - std::max(start, set[k].start);
  }
  return sum;
}

}  // namespace gpuprof::analysis
