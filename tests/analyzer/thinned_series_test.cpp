#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "gpuprof/analysis/thinned_series.hpp"

namespace gpuprof::analysis {
namespace {

struct Point {
  std::int64_t time_ns = 0;
  std::int64_t value = 0;
  bool operator==(const Point&) const = default;
};

std::vector<Point> random_series(std::size_t count) {
  std::mt19937_64 random(7);
  std::vector<Point> points;
  std::int64_t time = 1000;
  for (std::size_t i = 0; i < count; ++i) {
    time += 1 + static_cast<std::int64_t>(random() % 50);
    points.push_back({time, static_cast<std::int64_t>(random() % 1000)});
  }
  return points;
}

// The documented thinning computed directly over the whole series: whole when it fits (or fewer than 2 points
// are asked for); else each of max - 1 equal slices of time keeps its first point's time and the slice's largest
// value, and the last point stays as it is.
std::vector<Point> reference(const std::vector<Point>& points, std::size_t max) {
  if (points.size() <= max || max < 2) return points;
  const auto first = points.front().time_ns;
  const auto span = static_cast<long double>(points.back().time_ns - first) + 1;
  std::vector<Point> expected;
  std::size_t current = SIZE_MAX;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    const auto slice = std::min<std::size_t>(
        max - 2, static_cast<std::size_t>(static_cast<long double>(points[i].time_ns - first) * (max - 1) / span));
    if (slice != current) {
      expected.push_back(points[i]), current = slice;
    } else {
      expected.back().value = std::max(expected.back().value, points[i].value);
    }
  }
  expected.push_back(points.back());
  return expected;
}

TEST(ThinnedSeries, ASeriesThatFitsStaysWhole) {
  const auto points = random_series(40);
  EXPECT_EQ(thinned_keeping_max(points, 40, &Point::value), points);
  EXPECT_EQ(thinned_keeping_max(points, 1, &Point::value), points);
}

TEST(ThinnedSeries, EachSliceKeepsItsFirstTimeAndLargestValueAndTheLastPointStays) {
  const auto points = random_series(100'000);
  const auto kept = thinned_keeping_max(points, 50, &Point::value);
  EXPECT_LE(kept.size(), 50u);
  EXPECT_EQ(kept.back(), points.back());
  EXPECT_EQ(kept, reference(points, 50));
}

// Point by point, across the length where the series stops fitting.
TEST(ThinnedSeries, TheBuilderThinsAsTheWholeSeriesIsThinned) {
  for (const std::size_t count : {1u, 2u, 50u, 51u, 52u, 53u, 5000u}) {
    const auto points = random_series(count);
    ThinnedSeriesBuilder builder(points.front().time_ns, points.back().time_ns, 51, &Point::value);
    for (const auto& point : points) builder.add(point);
    const auto streamed = std::move(builder).finish();
    EXPECT_EQ(streamed, reference(points, 51)) << count;
    EXPECT_LE(streamed.size(), 51u);
  }
}

// Each slice's first time is found without a division per point (thin() skips to the next slice's first time):
// a point on every nanosecond next to each boundary, far from zero, with slices that do not divide the span and
// repeated times, lands in the slice the direct computation gives.
TEST(ThinnedSeries, PointsOnEveryNanosecondLandInTheSlicesTheDirectComputationGives) {
  for (const std::int64_t base : {std::int64_t{0}, std::int64_t{1'700'000'000'000'000'000}, std::int64_t{-5'000}}) {
    for (const std::size_t max : {3u, 7u, 97u, 1000u}) {
      std::vector<Point> points;
      for (std::int64_t t = 0; t < 20'011; ++t) {
        points.push_back({base + t, (t * 7919) % 1013});
        if (t % 13 == 0) points.push_back({base + t, (t * 31) % 1013});  // the same time twice
      }
      EXPECT_EQ(thinned_keeping_max(points, max, &Point::value), reference(points, max)) << base << " " << max;
    }
  }
}

}  // namespace
}  // namespace gpuprof::analysis
