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
  std::size_t slice_of(std::int64_t time_ns) const {
    const std::size_t slices = max_points_ - 1;
    return std::min<std::size_t>(
        slices - 1, static_cast<std::size_t>(static_cast<long double>(time_ns - first_ns_) * slices / span_));
  }

  // The earliest time in slice `slice` or a later one; slice_of never falls as time grows (each step of it is
  // a rounded product or quotient by a positive number), so an estimate is corrected by a few steps. Past the
  // last slice, or when the estimate is far off (a span near the int64 range), none: each point is computed.
  std::int64_t first_time_of(std::size_t slice, std::int64_t now_ns) const {
    const std::size_t slices = max_points_ - 1;
    if (slice >= slices) return std::numeric_limits<std::int64_t>::max();
    const long double estimate = static_cast<long double>(first_ns_) +
                                 static_cast<long double>(slice) * span_ / static_cast<long double>(slices);
    if (!(estimate > -9.0e18L && estimate < 9.0e18L)) return now_ns + 1;
    std::int64_t time = static_cast<std::int64_t>(estimate);
    for (int step = 0; step < 64; ++step) {
      if (time > now_ns + 1 && slice_of(time - 1) >= slice) {
        --time;
      } else if (slice_of(time) < slice) {
        if (time == std::numeric_limits<std::int64_t>::max()) break;
        ++time;
      } else {
        return std::max(time, now_ns + 1);
      }
    }
    return now_ns + 1;
  }

  void thin(const Point& point) {
    // Points come in time order: one before the next slice's first time is in the current slice, found without
    // a long double division per point (most of the launch queue's time at two points per kernel).
    const auto slice = point.time_ns < next_slice_ns_ ? current_ : slice_of(point.time_ns);
    if (slice != current_) {
      kept_.push_back(point);
      current_ = slice;
      next_slice_ns_ = first_time_of(slice + 1, point.time_ns);
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
  std::int64_t next_slice_ns_ = std::numeric_limits<std::int64_t>::min();  // before it: current_'s slice
};

template <typename Point, typename Value>
std::vector<Point> thinned_keeping_max(const std::vector<Point>& points, std::size_t max_points, Value Point::*value) {
  if (points.empty()) return {};
  ThinnedSeriesBuilder<Point, Value> builder(points.front().time_ns, points.back().time_ns, max_points, value);
  for (const auto& point : points) builder.add(point);
  return std::move(builder).finish();
}

}  // namespace gpuprof::analysis
