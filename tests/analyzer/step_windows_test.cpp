#include <gtest/gtest.h>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/analysis/step_windows.hpp"
#include "model_builder.hpp"

// Step windows tile each device's timeline (DESIGN.md, "Step window") even
// when the annotations or their projections overlap.

namespace gpuprof::analysis {
namespace {

using testing::ModelBuilder;

void expect_tiled(const RankAnalysis& rank) {
  for (const auto& device : rank.devices) {
    std::int64_t previous_end = std::numeric_limits<std::int64_t>::min(), windows = 0;
    for (const auto& entry : rank.steps) {
      if (entry.step.device != device.device) continue;
      EXPECT_GE(entry.step.start_ns, previous_end);
      previous_end = entry.step.end_ns;
      windows += entry.breakdown.window_ns;
      const auto& b = entry.breakdown;
      EXPECT_EQ(b.computation_ns + b.exposed_comm_ns + b.exposed_memcpy_ns + b.idle_ns, b.window_ns);
      EXPECT_EQ(b.idle_in_steps_ns + b.batch_gap_ns, b.idle_ns);
      EXPECT_GE(b.batch_gap_ns, 0);
      EXPECT_GE(b.idle_in_steps_ns, 0);
    }
    EXPECT_EQ(windows, device.total.window_ns);
  }
}

TEST(StepWindows, GapBelongsToTheStepBefore) {
  std::vector<GpuStep> steps = {{0, 2, 500, 700, 700, false, false, 1}, {0, 1, 100, 300, 300, false, false, 1}};
  tile_step_windows(steps);
  ASSERT_EQ(steps.size(), 2U);
  EXPECT_EQ(steps[0].step, 1);
  EXPECT_EQ(steps[0].start_ns, 100);
  EXPECT_EQ(steps[0].last_work_ns, 300);
  EXPECT_EQ(steps[0].end_ns, 500);
  EXPECT_EQ(steps[1].end_ns, 700);
  EXPECT_EQ(steps[1].last_work_ns, 700);
}

// Work of step 1 still runs when step 2 starts: the windows split at step 2's first work,
// and the last window runs to the latest end of any step.
TEST(StepWindows, OverlappingProjectionsDoNotOverlap) {
  std::vector<GpuStep> steps = {{0, 1, 100, 1000, 1000, false, false, 1}, {0, 2, 400, 800, 800, false, false, 1}};
  tile_step_windows(steps);
  ASSERT_EQ(steps.size(), 2U);
  EXPECT_EQ(steps[0].end_ns, 400);
  EXPECT_EQ(steps[0].last_work_ns, 400);
  EXPECT_EQ(steps[1].start_ns, 400);
  EXPECT_EQ(steps[1].end_ns, 1000);
}

// One step annotated on two host threads is one window, not two overlapping ones.
TEST(StepWindows, SameStepOnSeveralThreadsIsUnited) {
  ModelBuilder builder;
  for (const std::int64_t thread : {1, 2}) {
    builder.range(thread, 0, 1000, "ProfilerStep#1").range(thread, 1000, 2000, "ProfilerStep#2");
  }
  builder.api_call(1, 10, 20, 1).kernel(0, 7, 100, 400, "gemm", 1);
  builder.api_call(2, 30, 40, 2).kernel(0, 8, 300, 600, "gemm", 2);
  builder.api_call(1, 1010, 1020, 3).kernel(0, 7, 1100, 1400, "gemm", 3);
  builder.api_call(2, 1030, 1040, 4).kernel(0, 8, 1200, 1500, "gemm", 4);
  const auto rank = analyze_rank(builder.build(), AnalysisOptions{});
  ASSERT_EQ(rank.steps.size(), 2U);
  EXPECT_EQ(rank.steps[0].step.start_ns, 100);
  EXPECT_EQ(rank.steps[0].step.end_ns, 1100);
  EXPECT_EQ(rank.steps[0].breakdown.computation_ns, 500);
  EXPECT_EQ(rank.steps[0].breakdown.batch_gap_ns, 500);
  EXPECT_EQ(rank.steps[1].step.end_ns, 1500);
  const auto& total = rank.devices[0].total;
  EXPECT_EQ(total.window_ns, 1400);  // the span of the device's work, not 2 x 2 overlapping windows
  EXPECT_EQ(total.computation_ns, 900);
  ASSERT_EQ(rank.gaps.size(), 1U);
  EXPECT_EQ(rank.gaps[0].start_ns, 600);
  EXPECT_EQ(rank.gaps[0].end_ns, 1100);
  expect_tiled(rank);
}

// Work launched outside every step (a prefetch copy) inside the tail is not idle.
TEST(StepWindows, BatchGapIsTheIdlePartOfTheTail) {
  ModelBuilder builder;
  builder.range(1, 0, 1000, "step 1").range(1, 1000, 2000, "step 2");
  builder.api_call(1, 10, 20, 1).kernel(0, 7, 100, 400, "gemm", 1);
  builder.api_call(1, 1010, 1020, 2).kernel(0, 7, 1000, 1300, "gemm", 2);
  builder.memcpy(0, 9, 500, 600, trace::CopyKind::host_to_device, 64);
  const auto rank = analyze_rank(builder.build(), AnalysisOptions{});
  ASSERT_EQ(rank.steps.size(), 2U);
  const auto& first = rank.steps[0].breakdown;
  EXPECT_EQ(first.window_ns, 900);
  EXPECT_EQ(first.batch_gap_ns, 500);
  EXPECT_EQ(first.idle_in_steps_ns, 0);
  EXPECT_EQ(first.exposed_memcpy_ns, 100);
  ASSERT_EQ(rank.gaps.size(), 1U);
  EXPECT_EQ(rank.gaps[0].idle_ns, 500);
  EXPECT_EQ(rank.gaps[0].end_ns - rank.gaps[0].start_ns, 600);
  expect_tiled(rank);
}

TEST(StepWindows, AllWarmupFallsBackToAllStepsWithNotice) {
  ModelBuilder builder;
  builder.range(1, 0, 1000, "ProfilerStep#10").api_call(1, 10, 20, 1).kernel(0, 7, 100, 400, "gemm", 1);
  const auto rank = analyze_rank(builder.build(), AnalysisOptions{});
  ASSERT_EQ(rank.devices.size(), 1U);
  const auto& device = rank.devices[0];
  EXPECT_TRUE(device.steady_is_all_steps);
  EXPECT_EQ(device.steady_steps, 1);
  EXPECT_EQ(device.steady, device.total);
  EXPECT_EQ(device.steady.window_ns, 300);
  ASSERT_EQ(rank.notices.size(), 1U);
  EXPECT_NE(rank.notices[0].find("warm-up"), std::string::npos) << rank.notices[0];
}

}  // namespace
}  // namespace gpuprof::analysis
