// What the level-of-detail merge promises on any lane, checked on random lanes at many zooms:
// every visible event is in exactly one block, a block spans exactly its events' hull and the gaps it
// fills are narrower than the threshold, and an event at least as wide as the threshold is never merged.
// Lanes of disjoint events (streams, nesting depths) take a fast path, through their gap tree or, without
// one, by galloping searches; overlapping ones (hostile files) the careful one; all must keep them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "gpuprof/gui/gap_tree.hpp"
#include "gpuprof/gui/lod_merge.hpp"

namespace gpuprof::gui {
namespace {

constexpr double kWidthPx = 1000;

struct Events {
  std::vector<std::int64_t> start, end;

  // Measured like the timeline's lanes; the gap tree is left to the tests that want it.
  LaneView view() const {
    LaneView lane{start.data(), end.data(), nullptr, start.size()};
    const auto summary = summarise_lane(lane);
    lane.max_duration = summary.max_duration;
    lane.disjoint = summary.disjoint;
    return lane;
  }
};

// Back-to-back events with random lengths and gaps (a few long ones), so that every zoom has both
// narrow runs and wide events.
Events disjoint_events(std::mt19937& random, std::size_t count) {
  std::uniform_int_distribution<int> kind(0, 99);
  std::uniform_int_distribution<std::int64_t> short_length(1, 400), long_length(5'000, 200'000), gap(0, 600);
  Events events;
  std::int64_t t = 1'000'000;
  for (std::size_t i = 0; i < count; ++i) {
    t += kind(random) < 3 ? long_length(random) : gap(random);
    const std::int64_t length = kind(random) < 5 ? long_length(random) : short_length(random);
    events.start.push_back(t);
    events.end.push_back(t + length);
    t += length;
  }
  return events;
}

// The same kind of lane with calls nested inside others (a runtime call around its driver calls).
Events overlapping_events(std::mt19937& random, std::size_t count) {
  Events events = disjoint_events(random, count);
  std::uniform_int_distribution<int> nested(0, 3);
  std::uniform_int_distribution<std::int64_t> extra(0, 50'000);
  for (std::size_t i = 0; i < count; ++i) {
    if (nested(random) == 0) events.end[i] += extra(random);  // reaches over the next events
  }
  return events;
}

TimeAxis random_axis(std::mt19937& random, const Events& events) {
  TimeAxis axis;
  axis.set_width(kWidthPx);
  axis.set_limits(events.start.front(), events.end.back() + 1);
  const double span = static_cast<double>(events.end.back() - events.start.front());
  std::uniform_real_distribution<double> zoom(0.0, 6.0), where(0.0, 1.0);
  const auto length = static_cast<std::int64_t>(std::max(1000.0, span / std::pow(10.0, zoom(random))));
  const auto from = events.start.front() + static_cast<std::int64_t>(where(random) * span);
  axis.set_view(from, from + length);
  return axis;
}

double px(const TimeAxis& axis, std::int64_t from, std::int64_t to) { return axis.x_of(to) - axis.x_of(from); }

// The events a block replaces leave only gaps under the threshold inside its span.
void expect_filled_gaps_narrow(const LaneView& lane, const TimeAxis& axis, const DrawBlock& block) {
  std::int64_t covered = lane.end_at(block.first);
  for (std::size_t i = block.first + 1; i < block.first + block.count; ++i) {
    if (lane.start_at(i) > covered) {
      EXPECT_LT(px(axis, covered, lane.start_at(i)), kMinVisiblePx) << "a visible gap was filled at " << i;
    }
    covered = std::max(covered, lane.end_at(i));
  }
}

void expect_promises_kept(const LaneView& lane, const TimeAxis& axis) {
  std::vector<DrawBlock> blocks;
  merge_visible(lane, axis, blocks);
  // Every event reaching into the view, and no other, is in exactly one block, in order.
  std::size_t expected_first = lane.first_ending_after(axis.view_start());
  for (const auto& block : blocks) {
    ASSERT_EQ(block.first, expected_first);
    ASSERT_GE(block.count, 1u);
    expected_first += block.count;
    std::int64_t hull_end = lane.start_at(block.first);
    for (std::size_t i = block.first; i < block.first + block.count; ++i) {
      hull_end = std::max(hull_end, lane.end_at(i));
      if (block.merged()) {
        EXPECT_LT(px(axis, lane.start_at(i), lane.end_at(i)), kMinVisiblePx) << "a wide event was merged";
      }
    }
    EXPECT_EQ(block.start_ns, lane.start_at(block.first));
    EXPECT_EQ(block.end_ns, hull_end);
    expect_filled_gaps_narrow(lane, axis, block);
  }
  // Blocks start inside the view; a run may carry on past its end, never stop short of it.
  if (!blocks.empty()) {
    EXPECT_LT(blocks.back().start_ns, axis.view_end());
  }
  EXPECT_GE(expected_first, lane.lower_bound_start(axis.view_end()));
}

TEST(LodMergeProperties, DisjointLanesKeepEveryPromise) {
  std::mt19937 random(19);
  for (int lane_number = 0; lane_number < 20; ++lane_number) {
    const Events events = disjoint_events(random, 5000);
    const LaneView searched = events.view();
    ASSERT_TRUE(searched.disjoint);
    const GapTree tree = summarise_lane(searched).gaps;
    LaneView summarised = searched;
    summarised.gaps = &tree;
    for (int zoom = 0; zoom < 30; ++zoom) {
      const TimeAxis axis = random_axis(random, events);
      expect_promises_kept(searched, axis);
      expect_promises_kept(summarised, axis);
      // Both paths are shortcuts to the event-by-event answer (the path of lanes that may overlap).
      LaneView one_by_one = searched;
      one_by_one.disjoint = false;
      std::vector<DrawBlock> by_search, by_tree, by_event;
      merge_visible(searched, axis, by_search);
      merge_visible(summarised, axis, by_tree);
      merge_visible(one_by_one, axis, by_event);
      EXPECT_EQ(by_search, by_event);
      EXPECT_EQ(by_tree, by_event);
    }
  }
}

TEST(LodMergeProperties, OverlappingLanesKeepEveryPromise) {
  std::mt19937 random(8);
  for (int lane_number = 0; lane_number < 20; ++lane_number) {
    const Events events = overlapping_events(random, 5000);
    const LaneView lane = events.view();
    ASSERT_FALSE(lane.disjoint);
    for (int zoom = 0; zoom < 30; ++zoom) expect_promises_kept(lane, random_axis(random, events));
  }
}

TEST(LodMergeProperties, AWideEventBetweenNarrowOnesStaysAlone) {
  // 1 ns per pixel: 3 ns is the threshold. The 3 ns event sits between 1 ns events 1 ns apart.
  const Events events{{0, 2, 4, 8, 10}, {1, 3, 7, 9, 11}};
  TimeAxis axis;
  axis.set_width(100);
  axis.set_limits(0, 100);
  axis.set_view(0, 100);
  const GapTree tree = summarise_lane(events.view()).gaps;
  for (int path = 0; path < 3; ++path) {
    LaneView lane = events.view();
    lane.disjoint = path < 2;
    lane.gaps = path == 0 ? &tree : nullptr;
    std::vector<DrawBlock> blocks;
    merge_visible(lane, axis, blocks);
    const std::vector<DrawBlock> expected{{0, 3, 0, 2, 0, 3}, {4, 7, 2, 1, 4, 7}, {8, 11, 3, 2, 8, 11}};
    EXPECT_EQ(blocks, expected) << "path " << path;
  }
}

TEST(LodMergeProperties, ANestedCallThatEndsLastExtendsItsBlock) {
  // The middle call reaches past the one after it: the block must reach its end, not the last one's.
  const Events events{{0, 10, 20}, {5, 90, 25}};
  TimeAxis axis;
  axis.set_width(10);
  axis.set_limits(0, 10'000);
  axis.set_view(0, 10'000);  // 1000 ns per pixel: everything is narrow
  std::vector<DrawBlock> blocks;
  merge_visible(events.view(), axis, blocks);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].count, 3u);
  EXPECT_EQ(blocks[0].end_ns, 90);
}

TEST(LaneSearch, GapTreeFindsTheFirstBreakingGroup) {
  std::mt19937 random(5);
  const Events events = disjoint_events(random, 40 * GapTree::kGroup + 17);
  const LaneView lane = events.view();
  const GapTree tree = summarise_lane(lane).gaps;
  ASSERT_EQ(tree.groups(), 41u);
  std::uniform_int_distribution<std::size_t> group(0, tree.groups());
  std::uniform_int_distribution<std::int64_t> limit(1, 250'000);
  for (int probe = 0; probe < 5000; ++probe) {
    const std::size_t from = group(random);
    const std::int64_t gap_limit = limit(random), duration_limit = limit(random);
    std::size_t expected = tree.groups();
    for (std::size_t i = from * GapTree::kGroup; i < lane.size && expected == tree.groups(); ++i) {
      const bool gap = i > 0 && lane.start_at(i) - lane.end_at(i - 1) >= gap_limit;
      if (gap || lane.end_at(i) - lane.start_at(i) >= duration_limit) expected = i / GapTree::kGroup;
    }
    ASSERT_EQ(tree.first_breaking_group(from, gap_limit, duration_limit), expected) << "from group " << from;
  }
}

TEST(LaneSearch, GallopFindsWhatABinarySearchFinds) {
  std::mt19937 random(3);
  const Events events = disjoint_events(random, 3000);
  const LaneView lane = events.view();
  std::uniform_int_distribution<std::size_t> position(0, lane.size);
  std::uniform_int_distribution<std::int64_t> time(events.start.front() - 10, events.end.back() + 10);
  for (int probe = 0; probe < 20'000; ++probe) {
    const std::size_t from = position(random);
    const std::int64_t t = time(random);
    ASSERT_EQ(lane.gallop_start(t, from), lane.lower_bound_start(t, from)) << "t " << t << " from " << from;
  }
}

TEST(LaneSearch, SearchByEndAgreesWithTheScanOnDisjointLanes) {
  std::mt19937 random(4);
  const Events events = disjoint_events(random, 3000);
  LaneView by_end = events.view();
  LaneView scanned = by_end;
  scanned.disjoint = false;
  std::uniform_int_distribution<std::int64_t> time(events.start.front() - 10, events.end.back() + 10);
  for (int probe = 0; probe < 5000; ++probe) {
    const std::int64_t t = time(random);
    ASSERT_EQ(by_end.first_ending_after(t), scanned.first_ending_after(t)) << "t " << t;
  }
}

TEST(LaneSearch, MeasureFindsOverlapsAndTheLongestEvent) {
  const Events touching{{0, 10, 30}, {10, 25, 31}};
  EXPECT_TRUE(touching.view().disjoint);
  EXPECT_EQ(touching.view().max_duration, 15);
  const Events nested{{0, 10, 30}, {40, 25, 31}};
  EXPECT_FALSE(nested.view().disjoint);
  const Events backwards{{0, 10}, {5, 9}};  // an end before its start is never taken as ordered
  EXPECT_FALSE(backwards.view().disjoint);
}

}  // namespace
}  // namespace gpuprof::gui
