#include <gtest/gtest.h>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/idle/host_causes.hpp"
#include "gpuprof/idle/idle_cause.hpp"
#include "model_builder.hpp"

// host_bound is judged by the thread that launched the work ending an idle interval, and the interval's host
// activity names that thread (issue 39).

namespace gpuprof::idle {
namespace {

using gpuprof::testing::ModelBuilder;

constexpr std::size_t at(IdleCause cause) { return static_cast<std::size_t>(cause); }
constexpr std::int64_t kMain = 1, kAutograd = 2;

// GPU 0 idles three times (the third, launched by the main thread inside DDP.forward, is not asserted; here
// DDP.forward launches its kernels itself, so it does not enclose a phase: idle_phase_ranges_test.cpp):
//   [200, 500): k2 is launched at 400 by the autograd thread, which recorded nothing before: unrecorded 200,
//               launch_latency 100. The main thread sits in `## backward ##` meanwhile: not the launching thread.
//   [600, 1100): k3 is launched at 1010 by the main thread, in `## backward ##` until 700 (host_bound 100)
//               and in DistributedDataParallel.forward from 1000 (host_bound 10); unrecorded 300;
//               launch_latency 90.
//   [1200, 1600): k4 is launched at 1500 by the main thread inside DistributedDataParallel.forward.
trace::TraceModel fixture() {
  ModelBuilder builder;
  builder.api_call(kMain, 10, 20, 1).kernel(0, 7, 100, 200, "k1", 1);
  builder.range(kMain, 150, 700, "## backward ##");
  builder.api_call(kAutograd, 400, 410, 2).kernel(0, 7, 500, 600, "k2", 2);
  builder.range(kMain, 1000, 2000, "DistributedDataParallel.forward");
  builder.api_call(kMain, 1010, 1020, 3).kernel(0, 7, 1100, 1200, "k3", 3);
  builder.range(kMain, 1250, 1400, "model.py(12): compute_loss");
  builder.api_call(kMain, 1500, 1510, 4).kernel(0, 7, 1600, 1700, "k4", 4);
  return builder.build();
}

analysis::RankAnalysis analyzed() {
  analysis::AnalysisOptions options;
  options.keep_idle_intervals = true;
  options.interval_host_activity = 10;  // every interval's
  return analysis::analyze_rank(fixture(), options);
}

TEST(IdleLaunchingThread, OnlyTheLaunchingThreadExplainsTheIdle) {
  const auto rank = analyzed();
  ASSERT_EQ(rank.idle_intervals.size(), 3U);
  CauseTimes first{};
  first[at(IdleCause::unrecorded)] = 200;
  first[at(IdleCause::launch_latency)] = 100;
  EXPECT_EQ(rank.idle_intervals[0].causes, first);
  CauseTimes middle{};
  middle[at(IdleCause::host_bound)] = 110;
  middle[at(IdleCause::unrecorded)] = 300;
  middle[at(IdleCause::launch_latency)] = 90;
  EXPECT_EQ(rank.idle_intervals[1].causes, middle);
}

TEST(IdleLaunchingThread, HostActivityNamesTheLaunchingThread) {
  const auto rank = analyzed();
  ASSERT_EQ(rank.idle_intervals.size(), 3U);
  ASSERT_EQ(rank.interval_host_activity.count(0), 1U);
  ASSERT_EQ(rank.interval_host_activity.count(2), 1U);
  EXPECT_EQ(rank.interval_host_activity.at(0).launched_by_thread, kAutograd);
  EXPECT_EQ(rank.interval_host_activity.at(2).launched_by_thread, kMain);
}

// Each device reads its own launches, and the rank's host activity (any_device()) finds the earliest launch of
// work starting at a time on any device.
TEST(IdleLaunchingThread, EachDeviceReadsItsOwnLaunchesAndTheRankTheEarliestOfAll) {
  ModelBuilder builder;
  builder.api_call(kMain, 300, 310, 1).kernel(0, 7, 500, 600, "k0", 1);
  builder.api_call(kAutograd, 200, 210, 2).kernel(1, 8, 500, 550, "k1", 2);
  builder.api_call(kAutograd, 700, 710, 3).kernel(1, 8, 800, 900, "k2", 3);
  const auto model = builder.build();
  const analysis::CorrelationIndex correlations(model.api_calls);
  const HostCauses host(model, correlations);
  EXPECT_EQ(launching_thread(host.device(0), 500), kMain);
  EXPECT_EQ(launching_thread(host.device(1), 500), kAutograd);
  EXPECT_EQ(launching_thread(host.device(0), 800), std::nullopt);
  const auto earliest = earliest_launch_at(host.any_device(), 500);
  ASSERT_TRUE(earliest);
  EXPECT_EQ(earliest->second, 200);  // device 1's, in the second part of the array
  ASSERT_TRUE(earliest_launch_at(host.any_device(), 800));
  EXPECT_EQ(earliest_launch_at(host.any_device(), 800)->thread, kAutograd);
}

}  // namespace
}  // namespace gpuprof::idle
