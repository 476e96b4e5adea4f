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
