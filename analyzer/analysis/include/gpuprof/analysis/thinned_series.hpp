#pragma once

// A step series (each point's value holds until the next point) thinned for
// charts and JSON to at most `max_points` points, keeping every peak: each of
// `max_points - 1` equal slices of time keeps its first point's time and the
// largest value in the slice; the last point is kept as it is, so a chart ends
// where the series ends.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace gpuprof::analysis {

// `Point` has an int64 `time_ns`; `value` names its member to keep the largest of.
template <typename Point, typename Value>
std::vector<Point> thinned_keeping_max(const std::vector<Point>& points, std::size_t max_points, Value Point::*value) {
  if (points.size() <= max_points || max_points < 2) return points;
  const std::size_t slices = max_points - 1;
  const auto first = points.front().time_ns;
  const auto span = static_cast<long double>(points.back().time_ns - first) + 1;
  std::vector<Point> kept;
  std::size_t current = std::numeric_limits<std::size_t>::max();
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    const auto& point = points[i];
    const auto slice = std::min<std::size_t>(
        slices - 1, static_cast<std::size_t>(static_cast<long double>(point.time_ns - first) * slices / span));
    if (slice != current) {
      kept.push_back(point);
      current = slice;
    } else {
      kept.back().*value = std::max(kept.back().*value, point.*value);
    }
  }
  kept.push_back(points.back());
  return kept;
}

}  // namespace gpuprof::analysis
