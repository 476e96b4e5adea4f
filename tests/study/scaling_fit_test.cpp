#include <gtest/gtest.h>

#include <cmath>

#include "gpuprof/study/scaling_fit.hpp"

namespace gpuprof::study {
namespace {

const std::vector<double> kBatches = {64, 128, 256, 512, 1024};

std::vector<TimePoint> line(double intercept, double slope, const std::vector<double>& noise = {}) {
  std::vector<TimePoint> points;
  for (std::size_t i = 0; i < kBatches.size(); ++i) {
    points.push_back({kBatches[i], intercept + slope * kBatches[i] + (noise.empty() ? 0 : noise[i % noise.size()])});
  }
  return points;
}

TEST(ScalingFit, RecoversAnExactLine) {
  const auto fit = fit_line(line(0.002, 1e-4));
  ASSERT_TRUE(fit.valid);
  EXPECT_NEAR(fit.intercept, 0.002, 1e-12);
  EXPECT_NEAR(fit.slope, 1e-4, 1e-15);
  EXPECT_NEAR(fit.r_squared, 1.0, 1e-12);
  EXPECT_EQ(fit.points, 5u);
}

TEST(ScalingFit, NeedsTwoBatchSizes) {
  EXPECT_FALSE(fit_line({{64, 1.0}, {64, 1.1}}).valid);
  EXPECT_FALSE(fit_line({{64, 1.0}}).valid);
}

TEST(BreakEven, CrossingOfTwoLines) {
  // t1 = 1 + 0.01 b, t2 = 3 + 0.002 b cross at b = 2 / 0.008 = 250.
  const auto outcome = solve_break_even(fit_line(line(1, 0.01)), fit_line(line(3, 0.002)));
  EXPECT_EQ(outcome.kind, BreakEvenKind::breaks_even);
  EXPECT_NEAR(outcome.batch, 250, 1e-9);
}

TEST(BreakEven, TheGruCaseOfTheDesign) {
  // 1 GPU: 2 ms + 0.1 ms per sample; 2 GPUs chosen to give 0.51x at 64 and 1.43x at 1024.
  const auto one = fit_line(line(0.002, 1e-4));
  const double t2_64 = one.at(64) / 0.51, t2_1024 = one.at(1024) / 1.43;
  const double slope = (t2_1024 - t2_64) / 960, intercept = t2_64 - 64 * slope;
  const auto outcome = solve_break_even(one, fit_line(line(intercept, slope)));
  EXPECT_EQ(outcome.kind, BreakEvenKind::breaks_even);
  EXPECT_NEAR(outcome.batch, (intercept - 0.002) / (1e-4 - slope), 1e-6);
  EXPECT_GT(outcome.batch, 200);
  EXPECT_LT(outcome.batch, 300);
}

TEST(BreakEven, NeverWhenSlowerEverywhere) {
  EXPECT_EQ(solve_break_even(fit_line(line(1, 0.01)), fit_line(line(2, 0.02))).kind, BreakEvenKind::never);
  EXPECT_EQ(solve_break_even(fit_line(line(1, 0.01)), fit_line(line(2, 0.01))).kind, BreakEvenKind::never);
}

TEST(BreakEven, AlwaysFasterWhenFasterEverywhere) {
  EXPECT_EQ(solve_break_even(fit_line(line(1, 0.01)), fit_line(line(0.5, 0.005))).kind, BreakEvenKind::always_faster);
  EXPECT_EQ(solve_break_even(fit_line(line(1, 0.01)), fit_line(line(0.5, 0.01))).kind, BreakEvenKind::always_faster);
}

TEST(BreakEven, FasterOnlyBelowACrossing) {
  const auto outcome = solve_break_even(fit_line(line(2, 0.001)), fit_line(line(1, 0.003)));
  EXPECT_EQ(outcome.kind, BreakEvenKind::faster_below);
  EXPECT_NEAR(outcome.batch, 500, 1e-9);
}

TEST(BreakEvenInterval, ExactLinesGiveAPointInterval) {
  const auto interval = bootstrap_break_even(line(1, 0.01), line(3, 0.002));
  ASSERT_TRUE(interval.available);
  EXPECT_NEAR(interval.low, 250, 1e-6);
  EXPECT_NEAR(interval.high, 250, 1e-6);
  EXPECT_DOUBLE_EQ(interval.share_breaking_even, 1.0);
}

TEST(BreakEvenInterval, NoisyRepeatsBracketTheTrueCrossing) {
  auto one = line(1, 0.01, {0.05, -0.04, 0.03, -0.05, 0.02});
  auto more_one = line(1, 0.01, {-0.03, 0.04, -0.02, 0.05, -0.04});
  one.insert(one.end(), more_one.begin(), more_one.end());
  auto many = line(3, 0.002, {-0.04, 0.05, -0.03, 0.02, 0.04});
  auto more_many = line(3, 0.002, {0.03, -0.05, 0.04, -0.02, -0.03});
  many.insert(many.end(), more_many.begin(), more_many.end());
  const auto interval = bootstrap_break_even(one, many);
  ASSERT_TRUE(interval.available);
  EXPECT_LT(interval.low, 250);
  EXPECT_GT(interval.high, 250);
  EXPECT_LT(interval.high - interval.low, 50);
  // A fixed seed: the same data give the same interval.
  const auto again = bootstrap_break_even(one, many);
  EXPECT_EQ(again.low, interval.low);
  EXPECT_EQ(again.high, interval.high);
}

TEST(BreakEvenInterval, NeverAndAlwaysMapToTheEnds) {
  const auto never = bootstrap_break_even(line(1, 0.01), line(2, 0.02));
  EXPECT_TRUE(std::isinf(never.low));
  EXPECT_TRUE(std::isinf(never.high));
  EXPECT_EQ(never.share_breaking_even, 0.0);
  const auto always = bootstrap_break_even(line(1, 0.01), line(0.5, 0.005));
  EXPECT_EQ(always.low, 0.0);
  EXPECT_EQ(always.high, 0.0);
}

TEST(BreakEvenInterval, UnavailableWithTwoRunsPerLine) {
  EXPECT_FALSE(bootstrap_break_even({{64, 1}, {128, 2}}, {{64, 2}, {128, 2.5}}).available);
}

}  // namespace
}  // namespace gpuprof::study
