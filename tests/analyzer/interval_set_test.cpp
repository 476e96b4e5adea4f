#include <gtest/gtest.h>

#include "gpuprof/analysis/interval_set.hpp"

namespace gpuprof::analysis {
namespace {

TEST(IntervalSet, MergesOverlappingAndTouchingAndDropsEmpty) {
  EXPECT_EQ(normalize({{50, 60}, {0, 10}, {10, 20}, {15, 30}, {40, 40}}), (IntervalSet{{0, 30}, {50, 60}}));
}

TEST(IntervalSet, Unite) {
  const IntervalSet a{{0, 10}, {20, 30}, {50, 60}};
  const IntervalSet b{{5, 25}, {40, 45}, {60, 70}};
  EXPECT_EQ(unite(a, b), (IntervalSet{{0, 30}, {40, 45}, {50, 70}}));
  EXPECT_EQ(unite(a, {}), a);
}

TEST(IntervalSet, SubtractCutsHolesAndKeepsWideSubtrahendForLaterIntervals) {
  const IntervalSet a{{0, 100}, {120, 130}, {200, 300}};
  const IntervalSet b{{10, 20}, {30, 40}, {90, 125}, {250, 400}};
  EXPECT_EQ(subtract(a, b), (IntervalSet{{0, 10}, {20, 30}, {40, 90}, {125, 130}, {200, 250}}));
  EXPECT_EQ(subtract(a, {}), a);
  EXPECT_TRUE(subtract(a, IntervalSet{{-5, 500}}).empty());
}

TEST(IntervalSet, Intersect) {
  EXPECT_EQ(intersect({{0, 10}, {20, 30}}, {{5, 25}}), (IntervalSet{{5, 10}, {20, 25}}));
}

TEST(IntervalSet, Lengths) {
  const IntervalSet set{{0, 10}, {20, 30}, {40, 50}};
  EXPECT_EQ(total_length(set), 30);
  EXPECT_EQ(length_within(set, 5, 45), 5 + 10 + 5);
  EXPECT_EQ(length_within(set, 10, 20), 0);
  EXPECT_EQ(length_within(set, 60, 70), 0);
  OverlapCursor cursor(set);
  EXPECT_EQ(cursor.length_within(0, 5), 5);
  EXPECT_EQ(cursor.length_within(8, 25), 7);
  EXPECT_EQ(cursor.length_within(45, 100), 5);
}

}  // namespace
}  // namespace gpuprof::analysis
