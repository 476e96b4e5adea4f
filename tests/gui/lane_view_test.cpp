// A lane over a slice of a table must give table rows, not positions within the
// slice: names, colours and details are looked up by them.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace gpuprof::gui
