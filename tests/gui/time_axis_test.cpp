#include <gtest/gtest.h>

#include "gpuprof/gui/time_axis.hpp"

namespace gpuprof::gui {
namespace {

TimeAxis axis_of(std::int64_t start, std::int64_t end) {
  TimeAxis axis;
  axis.set_width(1000);
  axis.set_limits(0, 1'000'000);
  axis.set_view(start, end);
  return axis;
}

TEST(TimeAxis, MapsTimeToPixelsAndBack) {
  const auto axis = axis_of(100'000, 200'000);
  EXPECT_DOUBLE_EQ(axis.ns_per_px(), 100.0);
  EXPECT_DOUBLE_EQ(axis.x_of(150'000), 500.0);
  EXPECT_DOUBLE_EQ(axis.x_of(100'000), 0.0);
  EXPECT_DOUBLE_EQ(axis.x_of(90'000), -100.0);
  EXPECT_EQ(axis.ns_of(250), 125'000);
  EXPECT_EQ(axis.ns_of(0.5), 100'050);
  EXPECT_EQ(axis.view_start(), 100'000);
  EXPECT_EQ(axis.view_end(), 200'000);
}

TEST(TimeAxis, ZoomKeepsTheAnchorUnderThePointer) {
  auto axis = axis_of(100'000, 200'000);
  axis.zoom(2.0, 500);
  EXPECT_EQ(axis.view_start(), 125'000);
  EXPECT_EQ(axis.view_end(), 175'000);
  EXPECT_DOUBLE_EQ(axis.x_of(150'000), 500.0);
  axis.zoom(0.5, 0);  // zoom out around the left edge
  EXPECT_EQ(axis.view_start(), 125'000);
  EXPECT_EQ(axis.view_end(), 225'000);
}

TEST(TimeAxis, PanMovesByPixels) {
  auto axis = axis_of(100'000, 200'000);
  axis.pan_px(100);
  EXPECT_EQ(axis.view_start(), 110'000);
  EXPECT_EQ(axis.view_end(), 210'000);
  axis.pan_px(-250);
  EXPECT_EQ(axis.view_start(), 85'000);
}

TEST(TimeAxis, StaysWithinTheTracePlusAMargin) {
  auto axis = axis_of(-500'000, 2'000'000);
  EXPECT_EQ(axis.view_start(), -50'000);  // 5% margin of the 1 ms trace
  EXPECT_EQ(axis.view_end(), 1'050'000);
  axis.set_view(900'000, 1'000'000);
  axis.pan_px(10'000);
  EXPECT_EQ(axis.view_end(), 1'050'000);
  EXPECT_EQ(axis.view_start(), 950'000);
}

TEST(TimeAxis, NeverShowsLessThanTheMinimumSpan) {
  auto axis = axis_of(1000, 1010);
  EXPECT_EQ(axis.view_start(), 955);
  EXPECT_EQ(axis.view_end(), 1055);
  axis.zoom(1e9, 500);
  EXPECT_DOUBLE_EQ(axis.view_span_ns(), TimeAxis::kMinSpanNs);
}

TEST(TimeAxis, KeepsNanosecondsOnEpochClocks) {
  constexpr std::int64_t epoch = 1'700'000'000'000'000'000;
  TimeAxis axis;
  axis.set_width(1000);
  axis.set_limits(epoch, epoch + 1'000'000'000);
  axis.set_view(epoch + 123'456'789, epoch + 123'457'789);
  EXPECT_EQ(axis.view_start(), epoch + 123'456'789);
  EXPECT_DOUBLE_EQ(axis.x_of(epoch + 123'456'790), 1.0);
  EXPECT_EQ(axis.ns_of(999), epoch + 123'457'788);
}

}  // namespace
}  // namespace gpuprof::gui

namespace gpuprof::gui {
namespace {

// A view of a few hundred nanoseconds at offsets near INT64_MAX: a double cannot add the step there, and the
// ruler's loop once never ended (the app froze). The ticks stop instead.
TEST(RulerTicks, StopWhereADoubleCannotAddTheStep) {
  const double far = 9.0e18;
  const auto ticks = ruler_ticks(far, far + 1000.0, ruler_step(10.0), 1000);
  EXPECT_LE(ticks.size(), 2u);
  for (std::size_t i = 1; i < ticks.size(); ++i) EXPECT_GT(ticks[i], ticks[i - 1]);
}

TEST(RulerTicks, RoundStepsAndBoundedCount) {
  EXPECT_DOUBLE_EQ(ruler_step(130), 200);
  EXPECT_DOUBLE_EQ(ruler_step(450), 500);
  EXPECT_DOUBLE_EQ(ruler_step(1000), 1000);
  const auto ticks = ruler_ticks(150, 1000, 200, 100);
  EXPECT_EQ(ticks, (std::vector<double>{200, 400, 600, 800}));
  EXPECT_EQ(ruler_ticks(0, 1e12, 1, 10).size(), 10u);
  EXPECT_TRUE(ruler_ticks(0, 100, 0, 10).empty());
}

}  // namespace
}  // namespace gpuprof::gui
