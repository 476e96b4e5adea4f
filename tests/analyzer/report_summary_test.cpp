#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/report/advice.hpp"
#include "gpuprof/report/report_summary.hpp"
#include "report_fixtures.hpp"

// The summary a report opens with: every figure must agree with the analyses the tables show.

namespace gpuprof::report {
namespace {

using testing::golden_input;
using testing::golden_job_input;

TEST(ReportSummary, PeriodPartsAddUpToTheSteadyStepPeriods) {
  const auto input = golden_input();
  const auto summary = summarize_report(input);
  const auto& period = summary.period;
  EXPECT_EQ(period.ranks, 2);
  EXPECT_EQ(period.devices, 4);
  EXPECT_TRUE(period.from_steps);
  EXPECT_FALSE(period.all_warmup);
  std::int64_t windows = 0, window_ns = 0;
  std::vector<const analysis::DeviceBreakdown*> devices;
  for (const auto& rank : input.ranks) {
    for (const auto& device : rank.devices) {
      // The steady windows another step follows: the step periods compare and the steps table use too.
      windows += device.period_steps;
      window_ns += device.period.window_ns;
      devices.push_back(&device);
    }
  }
  EXPECT_EQ(period.windows, windows);
  EXPECT_EQ(period.window_ns, window_ns);
  EXPECT_DOUBLE_EQ(period.step_ns, analysis::mean_step_period_ns(devices));
  std::int64_t parts = 0;
  double shares = 0, per_step = 0;
  for (const auto& part : period.parts) {
    parts += part.total_ns;
    shares += part.share;
    per_step += part.per_step_ns;
    EXPECT_LE(part.min_share, part.share + 1e-12);
    EXPECT_GE(part.max_share, part.share - 1e-12);
  }
  EXPECT_EQ(parts, period.window_ns);
  EXPECT_NEAR(shares, 1.0, 1e-9);
  EXPECT_NEAR(per_step, period.step_ns, 1e-6);
  // Step periods (step 1) of device 0: 4.60 us computation of 9.90 us; device 1: 5.00 us of 10.0 us.
  const auto& computation = period.parts[static_cast<std::size_t>(PeriodPartKind::computation)];
  EXPECT_EQ(computation.total_ns, 2 * (4'600 + 5'000));
  EXPECT_DOUBLE_EQ(computation.per_step_ns, (4'600.0 + 5'000.0) / 2.0);
  EXPECT_DOUBLE_EQ(computation.min_share, 4'600.0 / 9'900.0);
  EXPECT_EQ(computation.min_device.device, 0);
  EXPECT_DOUBLE_EQ(computation.max_share, 5'000.0 / 10'000.0);
  EXPECT_EQ(computation.max_device.device, 1);
  EXPECT_EQ(period.min_step_ns, 9'900);
  EXPECT_EQ(period.max_step_ns, 10'000);
}

TEST(ReportSummary, GapsTransfersAndDataLoss) {
  const auto input = golden_input();
  const auto summary = summarize_report(input);
  std::int64_t count = 0, idle = 0;
  for (const auto& rank : input.ranks) {
    for (const auto& gap : rank.gaps) ++count, idle += gap.idle_ns;
  }
  EXPECT_EQ(summary.gaps.count, count);
  EXPECT_EQ(summary.gaps.idle_ns, idle);
  ASSERT_EQ(summary.gaps.causes.size(), 1U);
  EXPECT_EQ(summary.gaps.causes[0].cause, analysis::IdleCause::data_loading);
  EXPECT_EQ(summary.gaps.causes[0].idle_ns, idle);
  ASSERT_EQ(summary.gaps.largest.size(), kLargestGaps);
  for (std::size_t i = 1; i < summary.gaps.largest.size(); ++i) {
    EXPECT_GE(summary.gaps.largest[i - 1].gap.idle_ns, summary.gaps.largest[i].gap.idle_ns);
  }
  EXPECT_EQ(summary.gaps.largest[0].gap.idle_ns, 4'000);

  // PtoP: 6 copies per rank, 1 us each, all exposed; HtoD: one pageable upload per rank.
  ASSERT_EQ(summary.transfers.kinds.size(), 2U);
  const auto& peer = summary.transfers.kinds[0];
  EXPECT_EQ(peer.kind, trace::CopyKind::peer_to_peer);
  EXPECT_EQ(peer.totals.count, 12);
  EXPECT_EQ(peer.totals.exposed_ns, 12'000);
  EXPECT_EQ(peer.worst_rank, 0);  // ties keep the first pair
  EXPECT_EQ(peer.worst_pair.src_device, 0);
  EXPECT_EQ(peer.worst_pair.dst_device, 1);
  EXPECT_EQ(peer.worst_pair.totals.exposed_ns, 3'000);
  const auto& upload = summary.transfers.kinds[1];
  EXPECT_EQ(upload.kind, trace::CopyKind::host_to_device);
  EXPECT_EQ(upload.worst_pair.src_device, analysis::kHost);
  EXPECT_EQ(summary.transfers.exposed_ns, 12'000 + 200);

  EXPECT_EQ(summary.data_loss.warnings, 2);
  EXPECT_EQ(summary.data_loss.ranks, (std::vector<std::int32_t>{0, 1}));
  EXPECT_FALSE(summary.job.has_value());
}

TEST(ReportSummary, JobLinesComeFromTheStragglerReport) {
  const auto input = golden_job_input();
  ASSERT_TRUE(input.job.has_value());
  const auto summary = summarize_report(input);
  ASSERT_TRUE(summary.job.has_value());
  const auto& job = input.job->stragglers.job;
  EXPECT_EQ(summary.job->job.slowest_rank, job.slowest_rank);
  EXPECT_DOUBLE_EQ(summary.job->job.slowest_work_ns, job.slowest_work_ns);
  EXPECT_EQ(summary.job->stragglers.size(), job.stragglers.size());
  // Identical ranks expose the same share of their windows.
  EXPECT_DOUBLE_EQ(summary.job->least_exposed_comm.share, summary.job->most_exposed_comm.share);
  EXPECT_GT(summary.job->most_exposed_comm.share, 0.0);
}

// A straggler's line carries the waits the job found it caused (job::RankTiming, stragglers_test.cpp), the
// figure the stragglers are ranked by, most first.
TEST(ReportSummary, StragglerLinesCarryTheWaitsTheyCausedMostFirst) {
  auto input = golden_job_input();
  ASSERT_TRUE(input.job.has_value());
  auto& ranks = input.job->stragglers.ranks;
  ASSERT_EQ(ranks.size(), 2U);
  for (auto& timing : ranks) {
    timing.straggler = true;
    timing.mean_caused_wait_ns = timing.rank == 1 ? 300.0 : 100.0;
    timing.last_arrivals = timing.rank == 1 ? 2 : 1;
  }
  const auto summary = summarize_report(input);
  ASSERT_TRUE(summary.job.has_value());
  const auto& lines = summary.job->stragglers;
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0].rank, 1);
  EXPECT_DOUBLE_EQ(lines[0].peer_wait_caused_ns, 300.0);
  EXPECT_EQ(lines[0].last_arrivals, 2);
  EXPECT_EQ(lines[1].rank, 0);
}

TEST(ReportSummary, SpanWindowsHaveNoPeriod) {
  analysis::AnalysisOptions options;
  options.window = analysis::WindowMode::span;
  ReportInput input;
  input.ranks.push_back(analysis::analyze_rank(testing::golden_model(0), options));
  const auto summary = summarize_report(input);
  EXPECT_FALSE(summary.period.from_steps);
  EXPECT_EQ(summary.period.windows, 2);
  EXPECT_EQ(summary.period.step_ns, 0.0);
  std::int64_t parts = 0;
  for (const auto& part : summary.period.parts) {
    parts += part.total_ns;
    EXPECT_EQ(part.per_step_ns, 0.0);
  }
  EXPECT_EQ(parts, summary.period.window_ns);
  EXPECT_EQ(summary.gaps.count, 0);
}

// What to try follows the largest idle causes, says how much time each concerns, and for peer_wait turns to
// what the straggler's own host was doing.
TEST(ReportAdvice, FollowsTheLargestCausesAndTheStragglersOwnCause) {
  ReportSummary summary;
  summary.period.from_steps = true;
  summary.period.windows = 10;
  summary.period.window_ns = 10'000'000;
  summary.period.parts[static_cast<std::size_t>(PeriodPartKind::idle_in_steps)].share = 0.4;
  idle::CauseTimes peer{}, launch{}, sync{};
  peer[static_cast<std::size_t>(idle::IdleCause::peer_wait)] = 3'000'000;
  launch[static_cast<std::size_t>(idle::IdleCause::launch_latency)] = 900'000;
  sync[static_cast<std::size_t>(idle::IdleCause::sync_wait)] = 100'000;  // 2.5 %: below the advice share
  summary.idle.in_steps.add(peer), summary.idle.in_steps.add(launch), summary.idle.in_steps.add(sync);
  JobSummaryLines job;
  StragglerLine late{5, 2'000'000, 0.2};
  late.cause = idle::IdleCause::data_loading;
  late.peer_wait_caused_ns = 300'000;
  job.stragglers = {StragglerLine{3, 2'500'000, 0.25}, late};
  summary.job = job;
  const auto advice = advise(summary);
  ASSERT_EQ(advice.size(), 2u);
  EXPECT_EQ(advice[0].cause, idle::IdleCause::peer_wait);
  EXPECT_EQ(advice[0].idle_ns, 3'000'000);
  EXPECT_DOUBLE_EQ(advice[0].per_step_ns, 300'000.0);
  EXPECT_DOUBLE_EQ(advice[0].share, 0.75);
  ASSERT_TRUE(advice[0].rank.has_value());
  EXPECT_EQ(*advice[0].rank, 5) << "the rank the others wait for longest, not the latest";
  EXPECT_EQ(advice[0].rank_cause, idle::IdleCause::data_loading);
  EXPECT_NE(advice[0].text.find("data-loader workers"), std::string::npos) << advice[0].text;
  EXPECT_EQ(advice[1].cause, idle::IdleCause::launch_latency);
  EXPECT_NE(advice[1].text.find("CUDA graphs"), std::string::npos) << advice[1].text;
  // Where the GPUs hardly idle, the time is in the work itself: no cause gets advice.
  summary.period.parts[static_cast<std::size_t>(PeriodPartKind::idle_in_steps)].share = 0.02;
  EXPECT_TRUE(advise(summary).empty());
}

}  // namespace
}  // namespace gpuprof::report
