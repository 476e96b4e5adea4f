// The one median and percentile (units/statistics.hpp) every analysis, prediction, benchmark and test uses.
// Before, the benchmark, two validation tests and the clock estimates took the upper middle of an even
// sample, predict and the duration statistics the mean of the two middles.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "gpuprof/units/statistics.hpp"

namespace gpuprof::units {
namespace {

TEST(Statistics, MedianIsTheMeanOfTheTwoMiddlesForAnEvenCount) {
  EXPECT_DOUBLE_EQ(median(std::vector<double>{3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median(std::vector<double>{4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(median(std::vector<double>{}), 0.0);
  std::vector<std::int64_t> durations = {40, 10, 30, 20};
  EXPECT_DOUBLE_EQ(median(durations), 25.0);
}

TEST(Statistics, WholeMedianIsExactForLargeNanosecondCounts) {
  // Clock offsets near 1.7e18 ns: a double would round them to a multiple of 256.
  const std::int64_t base = 1'694'128'201'441'178'001;
  std::vector<std::int64_t> offsets = {base + 3, base, base + 1, base + 10};
  EXPECT_EQ(whole_median(offsets), base + 2);  // (base+1 + base+3) / 2
  std::vector<std::int64_t> odd = {base + 7, base, base + 1};
  EXPECT_EQ(whole_median(odd), base + 1);
  std::vector<std::int64_t> extremes = {std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max() - 2};
  EXPECT_EQ(whole_median(extremes), std::numeric_limits<std::int64_t>::max() - 1);
}

// Large samples (65,536 values and more) are selected by counting them into buckets of their range: every
// kind of sample must give the middles a full sort gives, even and odd counts alike.
std::pair<std::int64_t, std::int64_t> sorted_middles(std::vector<std::int64_t> values) {
  std::sort(values.begin(), values.end());
  const auto high = values.size() / 2;
  return {values[values.size() % 2 != 0 ? high : high - 1], values[high]};
}

TEST(Statistics, LargeSamplesHaveTheMiddlesOfAFullSort) {
  std::mt19937_64 random(38);
  const auto check = [](std::vector<std::int64_t> values, const char* what) {
    const auto [lower, upper] = sorted_middles(values);
    auto copy = values;
    EXPECT_EQ(whole_median(copy), std::midpoint(lower, upper)) << what << ", " << values.size() << " values";
    const double expected = lower == upper ? static_cast<double>(upper)
                                           : (static_cast<double>(lower) + static_cast<double>(upper)) / 2.0;
    // With the sample's bounds given (duration_stats has them): the same median.
    auto bounded = values;
    const auto [smallest, largest] = std::minmax_element(values.begin(), values.end());
    EXPECT_DOUBLE_EQ(median(std::span<std::int64_t>(bounded), *smallest, *largest), expected) << what << ", bounds given";
    EXPECT_DOUBLE_EQ(median(values), expected) << what;
  };
  const auto max = std::numeric_limits<std::int64_t>::max(), min = std::numeric_limits<std::int64_t>::min();
  for (const std::size_t count : {std::size_t{1} << 16, (std::size_t{1} << 16) + 1, std::size_t{200'001},
                                  std::size_t{300'000}}) {
    std::vector<std::int64_t> uniform(count), durations(count), extremes(count), bunched(count, 1000), ties(count);
    std::uniform_int_distribution<std::int64_t> any(min, max), small(0, 5'000), few(0, 3);
    std::lognormal_distribution<double> kernel(9.0, 1.5);
    for (std::size_t i = 0; i < count; ++i) {
      uniform[i] = any(random);
      durations[i] = static_cast<std::int64_t>(kernel(random));
      extremes[i] = i % 2 == 0 ? min + small(random) : max - small(random);
      ties[i] = 1'000'000 * few(random);
    }
    bunched[count / 3] = max;  // one outlier stretches the range over a sample bunched at one value
    bunched[count / 5] = min;
    check(uniform, "uniform over every int64");
    check(durations, "kernel-like durations");
    check(extremes, "the two ends of int64");
    check(bunched, "one value and two outliers");
    check(ties, "four distinct values");
    std::vector<std::int64_t> same(count, -7);
    check(same, "one value");
    std::sort(durations.begin(), durations.end());
    check(durations, "sorted durations");
  }
}

TEST(Statistics, NearestRankPercentiles) {
  const std::vector<std::int64_t> sorted = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
  EXPECT_EQ(nearest_rank_percentile(std::span<const std::int64_t>(sorted), 50), 50);
  EXPECT_EQ(nearest_rank_percentile(std::span<const std::int64_t>(sorted), 95), 100);
  EXPECT_EQ(nearest_rank_percentile(std::span<const std::int64_t>(sorted), 10), 10);
  EXPECT_EQ(nearest_rank_percentile(std::span<const std::int64_t>(sorted), 0), 10);
  const std::vector<std::int64_t> one = {7}, none;
  EXPECT_EQ(nearest_rank_percentile(std::span<const std::int64_t>(one), 95), 7);
  EXPECT_EQ(nearest_rank_percentile(std::span<const std::int64_t>(none), 50), 0);
  // The bootstrap interval's ends: 2.5 % and 97.5 % of 40 values are the 1st and the 39th.
  std::vector<double> resamples;
  for (int i = 1; i <= 40; ++i) resamples.push_back(i);
  EXPECT_DOUBLE_EQ(nearest_rank_percentile(std::span<const double>(resamples), 2.5), 1.0);
  EXPECT_DOUBLE_EQ(nearest_rank_percentile(std::span<const double>(resamples), 97.5), 39.0);
}

}  // namespace
}  // namespace gpuprof::units
