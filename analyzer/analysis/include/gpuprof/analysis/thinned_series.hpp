#pragma once

// A step series (each point's value holds until the next point) thinned for
// charts and JSON to at most `max_points` points, keeping every peak: each of
// `max_points - 1` equal slices of time keeps its first point's time and the
// largest value in the slice; the last point is kept as it is, so a chart ends
// where the series ends. A series of at most `max_points` points stays whole.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace gpuprof::analysis {

// Thins a series point by point, so that a series of millions of points (a
// launch queue) never needs to be held whole. The caller knows the times of the
// first and the last point beforehand and adds points in time order.
// `Point` has an int64 `time_ns`; `value` names its member to keep the largest of.
template <typename Point, typename Value>
class ThinnedSeriesBuilder {
 public:
  ThinnedSeriesBuilder(std::int64_t first_ns, std::int64_t last_ns, std::size_t max_points, Value Point::*value)
      : first_ns_(first_ns), span_(static_cast<long double>(last_ns - first_ns) + 1), max_points_(max_points),
        value_(value) {}

  void add(const Point& point) {
    if (whole_) {
      if (raw_.size() < max_points_ || max_points_ < 2) {
        raw_.push_back(point);
        return;
      }
      // Longer than max_points: what came so far is thinned; none of it is the last point.
      whole_ = false;
      for (const auto& earlier : raw_) thin(earlier);
      raw_ = {};
    } else {
      thin(*held_);
    }
    held_ = point;  // kept as it is if it turns out to be the last
  }

  std::vector<Point> finish() && {
    if (whole_) return std::move(raw_);
    kept_.push_back(*held_);
    return std::move(kept_);
  }

 private:
  void thin(const Point& point) {
    const std::size_t slices = max_points_ - 1;
    const auto slice = std::min<std::size_t>(
        slices - 1, static_cast<std::size_t>(static_cast<long double>(point.time_ns - first_ns_) * slices / span_));
    if (slice != current_) {
      kept_.push_back(point);
      current_ = slice;
    } else {
      kept_.back().*value_ = std::max(kept_.back().*value_, point.*value_);
    }
  }

  std::int64_t first_ns_;
  long double span_;
  std::size_t max_points_;
  Value Point::*value_;
  std::vector<Point> raw_, kept_;
  std::optional<Point> held_;
  bool whole_ = true;
  std::size_t current_ = std::numeric_limits<std::size_t>::max();
};

template <typename Point, typename Value>
std::vector<Point> thinned_keeping_max(const std::vector<Point>& points, std::size_t max_points, Value Point::*value) {
  if (points.empty()) return {};
  ThinnedSeriesBuilder<Point, Value> builder(points.front().time_ns, points.back().time_ns, max_points, value);
  for (const auto& point : points) builder.add(point);
  return std::move(builder).finish();
}

}  // namespace gpuprof::analysis
