// A lane over a slice of a table must give table rows, not positions within the
// slice: names, colours and details are looked up by them.
#include <gtest/gtest.h>

#include <algorithm>

#include "gpuprof/gui/timeline_data.hpp"

namespace gpuprof::gui {
namespace {

trace::TraceModel two_stream_model() {
  trace::TraceModel model;
  model.strings = {"first_stream_kernel", "second_stream_kernel"};
  for (std::int64_t i = 0; i < 6; ++i) {
    const bool second = i >= 3;
    model.kernels.device.push_back(0);
    model.kernels.context.push_back(1);
    model.kernels.stream.push_back(second ? 21 : 7);
    model.kernels.start_ns.push_back(100 * (i % 3) + (second ? 50 : 0));
    model.kernels.end_ns.push_back(100 * (i % 3) + (second ? 90 : 40));
    model.kernels.correlation_id.push_back(i);
    model.kernels.name.push_back(second ? 1 : 0);
  }
  return model;
}

TEST(LaneView, ContiguousLaneGivesTableRows) {
  const auto model = two_stream_model();
  Lane lane{LaneKind::kernels};
  lane.begin = 3;
  lane.end = 6;
  const LaneView view = lane_view(model, lane);
  ASSERT_EQ(view.size, 3U);
  for (std::size_t i = 0; i < view.size; ++i) {
    EXPECT_EQ(view.row(i), 3 + i);
    EXPECT_EQ(view.start_at(i), model.kernels.start_ns[3 + i]);
    EXPECT_EQ(model.string(model.kernels.name[view.row(i)]), "second_stream_kernel");
  }
  EXPECT_EQ(view.lower_bound_start(150), 1U);  // starts 50, 150, 250
}

TEST(LaneView, IndexedLaneGivesTableRows) {
  const auto model = two_stream_model();
  Lane lane{LaneKind::kernels};
  lane.rows = {4, 5};
  const LaneView view = lane_view(model, lane);
  ASSERT_EQ(view.size, 2U);
  EXPECT_EQ(view.row(0), 4U);
  EXPECT_EQ(view.end_at(1), model.kernels.end_ns[5]);
}

void add_call(trace::TraceModel& model, std::int64_t thread, std::int64_t start, std::int64_t end) {
  auto& api = model.api_calls;
  api.process_id.push_back(1);
  api.thread_id.push_back(thread);
  api.start_ns.push_back(start);
  api.end_ns.push_back(end);
  api.correlation_id.push_back(static_cast<std::int64_t>(api.name.size()));
  api.return_code.push_back(0);
  api.name.push_back(0);
  api.kind.push_back(trace::ApiKind::runtime);
}

TEST(LaneView, NestedHostCallsGoOneBelowTheOther) {
  auto model = two_stream_model();
  add_call(model, 5, 0, 100);    // runtime call
  add_call(model, 5, 10, 20);    // driver calls inside it
  add_call(model, 9, 15, 25);    // another thread
  add_call(model, 5, 30, 40);
  add_call(model, 5, 200, 300);  // the next runtime call
  model.ranges.process_id.clear(), model.ranges.process_id.push_back(1);  // stored per run
  model.ranges.thread_id = {5};
  model.ranges.start_ns = {0};
  model.ranges.end_ns = {500};
  model.ranges.name = {0};
  model.ranges.domain = {trace::kNoString};
  model.ranges.category = {0};
  model.ranges.on_gpu = {0};
  model.ranges.device = {trace::kUnknown32};
  model.ranges.stream = {trace::kUnknown};
  model.ranges.correlation_id = {trace::kUnknown};
  const auto timeline = build_rank_timeline(model);
  const auto row = std::find_if(timeline.rows.begin(), timeline.rows.end(),
                                [](const TimelineRow& r) { return r.kind == RowKind::host_thread && r.thread == 5; });
  ASSERT_NE(row, timeline.rows.end());
  ASSERT_EQ(row->lanes.size(), 3u);
  EXPECT_EQ(row->lanes[0].kind, LaneKind::api_calls);
  EXPECT_EQ(row->lanes[0].rows, (std::vector<std::uint32_t>{0, 4}));
  EXPECT_EQ(row->lanes[1].kind, LaneKind::api_calls);
  EXPECT_EQ(row->lanes[1].rows, (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(row->lanes[2].kind, LaneKind::ranges);
  // Every lane is disjoint, so every lane takes the merge's fast path.
  for (const auto& lane : row->lanes) EXPECT_TRUE(lane.disjoint);
  const std::size_t threads = std::count_if(timeline.rows.begin(), timeline.rows.end(), [](const TimelineRow& r) {
    return r.kind == RowKind::host_thread;
  });
  EXPECT_EQ(threads, 2u);  // 5 and 9
}

TEST(LaneView, EndlessNestingStopsAtADeepestLaneThatKeepsEveryCall) {
  auto model = two_stream_model();
  for (std::int64_t i = 0; i < 100; ++i) add_call(model, 5, i, 1000 - i);  // each inside the one before
  const auto timeline = build_rank_timeline(model);
  const auto row = std::find_if(timeline.rows.begin(), timeline.rows.end(),
                                [](const TimelineRow& r) { return r.kind == RowKind::host_thread; });
  ASSERT_NE(row, timeline.rows.end());
  ASSERT_EQ(row->lanes.size(), 64u);
  std::size_t calls = 0;
  for (const auto& lane : row->lanes) calls += lane.rows.size();
  EXPECT_EQ(calls, 100u);
  EXPECT_EQ(row->lanes.back().rows.size(), 37u);
  EXPECT_FALSE(row->lanes.back().disjoint);  // drawn by the merge's careful path
  EXPECT_TRUE(row->lanes.front().disjoint);
}

}  // namespace
}  // namespace gpuprof::gui
