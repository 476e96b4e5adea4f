#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "gpuprof/analysis/interval_set.hpp"
#include "gpuprof/analysis/run_sort.hpp"

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

// Sorted runs merged give what a full sort gives, for mostly sorted input and for input that is not.
TEST(SortRuns, EqualsAFullSort) {
  std::vector<std::vector<int>> cases = {{}, {1}, {3, 1, 2}, {1, 2, 3, 4}};
  std::vector<int> runs;
  for (int run = 0; run < 7; ++run) {
    for (int i = 0; i < 50; ++i) runs.push_back((run * 37 + i * 3) % 200);
  }
  cases.push_back(runs);
  std::vector<int> shuffled;
  for (int i = 0; i < 1000; ++i) shuffled.push_back((i * 7919) % 1009);
  cases.push_back(shuffled);
  for (auto values : cases) {
    auto expected = values;
    std::sort(expected.begin(), expected.end());
    sort_runs(values);
    EXPECT_EQ(values, expected);
  }
}

// Runs merged through one buffer (the shorter run of each merge goes into it) keep equal keys in input order,
// as std::stable_sort does: long runs before short ones and short before long, ties across runs.
TEST(SortRuns, KeepsEqualKeysInInputOrder) {
  std::vector<std::pair<int, int>> values;  // (key, input position)
  const std::vector<int> run_lengths = {300, 3, 1, 120, 7, 7, 250, 2};
  for (std::size_t run = 0; run < run_lengths.size(); ++run) {
    for (int i = 0; i < run_lengths[run]; ++i) {
      values.emplace_back((i * 5 + static_cast<int>(run)) / 4, static_cast<int>(values.size()));
    }
  }
  const auto by_key = [](const std::pair<int, int>& a, const std::pair<int, int>& b) { return a.first < b.first; };
  auto expected = values;
  std::stable_sort(expected.begin(), expected.end(), by_key);
  sort_runs(values, by_key);
  EXPECT_EQ(values, expected);
}

}  // namespace
}  // namespace gpuprof::analysis
