#include <gtest/gtest.h>

#include <cmath>

#include "gpuprof/report/chart_scale.hpp"

namespace gpuprof::report {
namespace {

// The step is 1, 2 or 5 times a power of ten, and the ticks cover the range.
void expect_round_cover(double low, double high) {
  const auto ticks = nice_ticks(low, high);
  ASSERT_GE(ticks.values.size(), 2U) << low << ".." << high;
  const double mantissa = ticks.step / std::pow(10.0, std::floor(std::log10(ticks.step)));
  EXPECT_TRUE(std::fabs(mantissa - 1) < 1e-9 || std::fabs(mantissa - 2) < 1e-9 || std::fabs(mantissa - 5) < 1e-9)
      << "step " << ticks.step;
  EXPECT_LE(ticks.values.front(), low);
  EXPECT_GE(ticks.values.back(), high);
  EXPECT_LE(ticks.values.size(), 8U);
  for (const double value : ticks.values) {
    EXPECT_NEAR(value / ticks.step, std::round(value / ticks.step), 1e-6) << value;
  }
}

TEST(ChartScale, TicksFallOnRoundValues) {
  expect_round_cover(0, 14.5);  // the desktop app's old 4.8 / 9.7 / 14.5
  expect_round_cover(0, 15400);
  expect_round_cover(0, 0.0031);
  expect_round_cover(3.2, 3.9);
  expect_round_cover(0, 100);
  EXPECT_EQ(nice_ticks(0, 14.5).values, (std::vector<double>{0, 5, 10, 15}));
}

TEST(ChartScale, DegenerateRangesStillGiveAnAxis) {
  EXPECT_GE(nice_ticks(5, 5).values.size(), 2U);
  EXPECT_GE(nice_ticks(NAN, 1).values.size(), 2U);
  EXPECT_GE(nice_ticks(2, 1).values.size(), 2U);
}

TEST(ChartScale, LabelsNeverUseExponents) {
  EXPECT_EQ(tick_label(15400, 5000), "15400");
  EXPECT_EQ(tick_label(0.2, 0.2), "0.2");
  EXPECT_EQ(tick_label(0.05, 0.05), "0.05");
  EXPECT_EQ(tick_label(3, 1), "3");
}

}  // namespace
}  // namespace gpuprof::report
