#include <gtest/gtest.h>

#include "gpuprof/rank/gap_summary.hpp"

namespace gpuprof::analysis {
namespace {

BatchGap gap(std::int32_t device, std::int64_t idle, IdleCause cause) {
  BatchGap result;
  result.device = device;
  result.idle_ns = idle;
  result.end_ns = idle;
  result.cause = cause;
  return result;
}

TEST(GapSummary, PerDeviceFiguresAndCauses) {
  const std::vector<BatchGap> gaps = {gap(1, 400, IdleCause::sync_wait),         gap(0, 100, IdleCause::data_loading),
                                      gap(0, 300, IdleCause::data_loading), gap(0, 200, IdleCause::host_bound),
                                      gap(0, 1000, IdleCause::sync_wait)};
  const auto stats = summarize_gaps(gaps);
  ASSERT_EQ(stats.size(), 2U);
  const auto& first = stats[0];
  EXPECT_EQ(first.device, 0);
  EXPECT_EQ(first.count, 4);
  EXPECT_EQ(first.total_ns, 1600);
  EXPECT_DOUBLE_EQ(first.mean_ns, 400.0);
  EXPECT_EQ(first.p50_ns, 200);
  EXPECT_EQ(first.p95_ns, 1000);
  EXPECT_EQ(first.max_ns, 1000);
  // The causes add up to the device's gaps.
  std::int64_t count = 0, idle = 0;
  for (const auto& cause : first.by_cause) count += cause.count, idle += cause.idle_ns;
  EXPECT_EQ(count, first.count);
  EXPECT_EQ(idle, first.total_ns);
  const auto causes = causes_by_idle(first.by_cause);
  ASSERT_EQ(causes.size(), 3U);  // pageable_copy has no gap and is left out
  EXPECT_EQ(causes[0].cause, IdleCause::sync_wait);
  EXPECT_EQ(causes[1].cause, IdleCause::data_loading);
  EXPECT_EQ(causes[1].count, 2);
  EXPECT_EQ(causes[1].idle_ns, 400);
  EXPECT_EQ(causes[2].cause, IdleCause::host_bound);
  EXPECT_EQ(stats[1].device, 1);
  EXPECT_EQ(stats[1].p50_ns, 400);
  EXPECT_TRUE(summarize_gaps({}).empty());
}

}  // namespace
}  // namespace gpuprof::analysis
