#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "gpuprof/gui/lod_merge.hpp"

namespace gpuprof::gui {
namespace {

struct Events {
  std::vector<std::int64_t> start, end;
  LaneView view() const {
    std::int64_t longest = 0;
    for (std::size_t i = 0; i < start.size(); ++i) longest = std::max(longest, end[i] - start[i]);
    return {start.data(), end.data(), nullptr, start.size(), longest};
  }
};

// 100 px over [0, 10 000) ns: 100 ns per pixel, so the 3 px threshold is 300 ns.
TimeAxis axis_of(std::int64_t start, std::int64_t end) {
  TimeAxis axis;
  axis.set_width(100);
  axis.set_limits(0, 100'000);
  axis.set_view(start, end);
  return axis;
}

const Events kSample{{0, 1000, 1150, 1300, 5000, 5200}, {1000, 1100, 1250, 1400, 5100, 8000}};

TEST(LodMerge, WideEventsAloneNarrowNeighboursMerged) {
  std::vector<DrawBlock> blocks;
  merge_visible(kSample.view(), axis_of(0, 10'000), blocks);
  const std::vector<DrawBlock> expected{
      {0.0, 10.0, 0, 1, 0, 1000},      // 10 px: drawn alone
      {10.0, 14.0, 1, 3, 1000, 1400},  // three 1 px events with gaps under 3 px
      {50.0, 51.0, 4, 1, 5000, 5100},  // narrow, but the next event is wide: alone
      {52.0, 80.0, 5, 1, 5200, 8000},
  };
  EXPECT_EQ(blocks, expected);
}

TEST(LodMerge, ZoomingInSplitsMergedBlocks) {
  std::vector<DrawBlock> blocks;
  merge_visible(kSample.view(), axis_of(900, 1500), blocks);  // 6 ns per pixel
  ASSERT_EQ(blocks.size(), 4u);
  EXPECT_EQ(blocks[0].first, 0u);  // [0, 1000) reaches into the view
  EXPECT_EQ(blocks[1].first, 1u);
  EXPECT_EQ(blocks[2].first, 2u);
  EXPECT_EQ(blocks[3].first, 3u);
  for (const auto& block : blocks) EXPECT_EQ(block.count, 1u);
  EXPECT_NEAR(blocks[1].x0, 100.0 / 6.0, 1e-9);
}

TEST(LodMerge, OnlyVisibleEvents) {
  std::vector<DrawBlock> blocks;
  merge_visible(kSample.view(), axis_of(5100, 15'100), blocks);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].first, 5u);
  EXPECT_DOUBLE_EQ(blocks[0].x0, 1.0);
  EXPECT_DOUBLE_EQ(blocks[0].x1, 29.0);
}

TEST(LodMerge, MillionEventsBecomeAFewBlocks) {
  Events events;
  for (std::int64_t i = 0; i < 1'000'000; ++i) {
    events.start.push_back(i * 20);
    events.end.push_back(i * 20 + 10);
  }
  TimeAxis axis;
  axis.set_width(1000);
  axis.set_limits(0, 20'000'000);
  axis.fit_all();
  std::vector<DrawBlock> blocks;
  merge_visible(events.view(), axis, blocks);
  // Events 10 ns long every 20 ns are all narrower than a pixel: everything is one run.
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].count, 1'000'000u);
  EXPECT_EQ(blocks[0].end_ns, 19'999'990);
}

TEST(LodMerge, IndexedLanesReadThroughTheirRows) {
  const std::vector<std::int64_t> start{0, 500, 1000, 9000}, end{400, 900, 4000, 9500};
  const std::vector<std::uint32_t> rows{0, 2, 3};  // row 1 belongs to another thread
  const LaneView view{start.data(), end.data(), rows.data(), rows.size(), 3000};
  std::vector<DrawBlock> blocks;
  merge_visible(view, axis_of(0, 10'000), blocks);
  const std::vector<DrawBlock> expected{{0.0, 4.0, 0, 1, 0, 400}, {10.0, 40.0, 1, 1, 1000, 4000},
                                        {90.0, 95.0, 2, 1, 9000, 9500}};
  EXPECT_EQ(blocks, expected);
  EXPECT_EQ(view.row(blocks[1].first), 2u);
}

TEST(LodMerge, FindsTheEventUnderAPoint) {
  const auto view = kSample.view();
  EXPECT_EQ(find_event_at(view, 1200, 0), 2u);
  EXPECT_EQ(find_event_at(view, 1120, 0), view.size);  // between two events
  EXPECT_EQ(find_event_at(view, 1120, 50), 1u);         // 21 ns from b, 30 ns from c
  EXPECT_EQ(find_event_at(view, 7000, 0), 5u);
  EXPECT_EQ(find_event_at(view, 9000, 100), view.size);
}

}  // namespace
}  // namespace gpuprof::gui
