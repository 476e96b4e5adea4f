#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/idle/host_causes.hpp"
#include "gpuprof/idle/idle_cause.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "job_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::job {
namespace {

using gpuprof::testing::TemporaryFolder;

synthetic::SynthOptions one_device(std::int64_t loader_us) {
  synthetic::SynthOptions options;
  options.devices = 1;
  options.steps = 8;
  options.loader_us = loader_us;
  return options;
}

// A slow loader makes rank 2 start every step late, but the synthetic ranks' all-reduces do not wait for
// each other (their clocks are aligned by the collectives' ends): lateness alone names no straggler.
TEST(Stragglers, SlowLoaderRankIsLateButNamedOnlyIfOthersWaitForIt) {
  TemporaryFolder folder;
  // Ranks 0, 1 and 3 run the same timeline (copies), so only the loader of rank 2 differs.
  std::vector<std::string> paths = {gpuprof::testing::write_rank(folder.file("r0.sqlite"), 0, 4, one_device(300))};
  for (const std::int32_t rank : {1, 3}) {
    paths.push_back(folder.file("r" + std::to_string(rank) + ".sqlite"));
    std::filesystem::copy_file(paths.front(), paths.back());
    gpuprof::testing::set_rank(paths.back(), rank);
  }
  paths.push_back(gpuprof::testing::write_rank(folder.file("r2.sqlite"), 2, 4, one_device(3'000)));
  const auto job = analyze_job(paths, {});
  const auto& report = job.stragglers;
  EXPECT_EQ(report.job.ranks, 4);
  EXPECT_GE(report.job.imbalance, 0.0);
  ASSERT_EQ(report.ranks.size(), 4U);
  for (const auto& rank : report.ranks) {
    EXPECT_EQ(rank.steps, 7);  // steady steps
  }
  const auto named_without_waits = std::any_of(report.ranks.begin(), report.ranks.end(), [](const RankTiming& rank) {
    return rank.straggler && rank.caused_wait_ns == 0;
  });
  EXPECT_FALSE(named_without_waits);
  // Every step of every rank has a row; the slow rank starts each steady step last.
  EXPECT_EQ(report.steps.size(), 4U * 8U);
  for (const auto& step : report.steps) {
    if (step.warmup || step.rank == 2) continue;
    const auto slow = std::find_if(report.steps.begin(), report.steps.end(), [&](const RankStep& other) {
      return other.rank == 2 && other.step == step.step;
    });
    ASSERT_NE(slow, report.steps.end());
    EXPECT_GT(slow->lateness_ns, step.lateness_ns) << "step " << step.step;
  }
}

// DESIGN.md, "Straggler reason": what the late rank's host did while it was late.
TEST(Stragglers, LatenessGetsTheHostsCauses) {
  TemporaryFolder folder;
  const auto fast = gpuprof::testing::write_rank(folder.file("r0.sqlite"), 0, 2, one_device(300));
  const auto slow = gpuprof::testing::write_rank(folder.file("r1.sqlite"), 1, 2, one_device(3'000));
  const auto job = analyze_job({fast, slow}, {});
  const auto& report = job.stragglers;
  std::int64_t late_steps = 0;
  for (const auto& step : report.steps) {
    EXPECT_EQ(idle::total_of(step.lateness_causes), step.lateness_ns) << "rank " << step.rank << " step " << step.step;
    if (step.rank != 1 || step.warmup || step.lateness_ns == 0) continue;
    ++late_steps;
    EXPECT_EQ(idle::judge(step.lateness_causes).label, idle::IdleCause::data_loading) << "step " << step.step;
  }
  EXPECT_GT(late_steps, 0);
  const auto& timing = report.ranks[1];
  EXPECT_EQ(idle::judge(timing.lateness_causes).label, idle::IdleCause::data_loading);
}

// The job reads a rank's launches after its trace is freed, from those kept at its windows' starts
// (HostCauses::take_any_device): the lateness of a step ends with the step's launch, as the loaded trace says.
TEST(Stragglers, LatenessReadsTheLaunchesKeptAtTheStepsStarts) {
  TemporaryFolder folder;
  const auto fast = gpuprof::testing::write_rank(folder.file("r0.sqlite"), 0, 2, one_device(300));
  const auto slow = gpuprof::testing::write_rank(folder.file("r1.sqlite"), 1, 2, one_device(3'000));
  const auto model = trace::load_trace_model(slow);
  const auto summary = summarize_rank(model, {}, 1);
  const analysis::CorrelationIndex correlations(model.api_calls);
  const idle::HostCauses loaded(model, correlations);
  ASSERT_FALSE(summary.windows.empty());
  std::size_t launched = 0;
  for (const auto& window : summary.windows) {
    const auto expected = idle::earliest_launch_at(loaded.any_device(), window.start_ns);
    EXPECT_EQ(idle::earliest_launch_at(summary.host_activity, window.start_ns), expected) << window.start_ns;
    launched += expected ? 1 : 0;
  }
  EXPECT_GT(launched, 0U);
  const auto job = analyze_job({fast, slow}, {});
  std::int64_t with_latency = 0;
  for (const auto& step : job.stragglers.steps) {
    if (step.rank == 1 && step.lateness_ns > 0) {
      with_latency += step.lateness_causes[static_cast<std::size_t>(idle::IdleCause::launch_latency)] > 0;
    }
  }
  EXPECT_GT(with_latency, 0);
}

// One step window per rank: `start` (skewed profiler starts) and a 10 ms step.
RankSummary one_window(std::int32_t rank, std::int64_t start) {
  RankSummary summary;
  summary.analysis.rank = rank;
  summary.windows.push_back({0, 1, false, true, start, start + 10'000'000, {}, {}, {}});
  return summary;
}

PeerWaitPiece waited(std::int32_t rank, std::int32_t for_rank, std::int64_t ns) {
  PeerWaitPiece piece;
  piece.rank = rank, piece.waited_for = for_rank, piece.steady = true, piece.peer_wait_ns = ns;
  piece.end_ns = ns;
  return piece;
}

// dlrm-8rank's shape: rank 2 starts 5 ms late (profiler start skew) and never arrives last; rank 3 costs the
// others 2 ms, rank 1 0.5 ms. The stragglers are 3 then 1, by the waits they cause; rank 2 is not named, and
// the slowest rank is the first straggler, one answer.
TEST(Stragglers, RankedByTheWaitsARankCausesNotByStartSkew) {
  std::vector<RankSummary> ranks{one_window(0, 0), one_window(1, 100'000), one_window(2, 5'000'000),
                                 one_window(3, 200'000)};
  // Rank 0 has the most own work (a longer step): still not the rank that holds the others back.
  ranks[0].windows[0].end_ns += 3'000'000;
  const std::vector<PeerWaitPiece> pieces{waited(0, 3, 1'500'000), waited(1, 3, 500'000), waited(2, 1, 500'000),
                                          waited(3, 3, 900'000),  // rank 3's own devices: not counted
                                          [] {  // nor is warm-up time
                                            auto piece = waited(0, 1, 700'000);
                                            piece.steady = false;
                                            return piece;
                                          }()};
  ClockAlignment clocks;
  const CollectiveWaits waits(ranks.size());
  const auto report = find_stragglers(ranks, clocks, waits, {}, pieces);
  EXPECT_EQ(report.job.stragglers, (std::vector<std::int32_t>{3, 1}));
  EXPECT_EQ(report.ranks[3].caused_wait_ns, 2'000'000);
  EXPECT_EQ(report.ranks[1].caused_wait_ns, 500'000);
  EXPECT_EQ(report.ranks[2].caused_wait_ns, 0);
  EXPECT_FALSE(report.ranks[2].straggler);
  EXPECT_GT(report.ranks[2].mean_lateness_ns, report.ranks[3].mean_lateness_ns);
  EXPECT_EQ(report.job.slowest_rank, 3);
  EXPECT_GT(report.job.imbalance, 0.0);  // rank 0's extra work, whoever is named
}

TEST(Stragglers, EqualRanksHaveNoStraggler) {
  TemporaryFolder folder;
  const auto a = gpuprof::testing::write_rank(folder.file("a.sqlite"), 0, 2, one_device(300));
  const auto b = folder.file("b.sqlite");
  std::filesystem::copy_file(a, b);
  gpuprof::testing::set_rank(b, 1);
  const auto job = analyze_job({a, b}, {});
  EXPECT_TRUE(job.stragglers.job.stragglers.empty());
  // Without collectives there is nothing to wait in.
  for (const auto& step : job.stragglers.steps) EXPECT_EQ(step.collective_wait_ns, 0);
}

TEST(Stragglers, DevicesOfOneProcessWaitForEachOther) {
  TemporaryFolder folder;
  synthetic::SynthOptions options;
  options.devices = 2;
  options.steps = 6;
  const auto job = analyze_job({gpuprof::testing::write_rank(folder.file("a.sqlite"), 0, 1, options)}, {});
  ASSERT_EQ(job.collective_waits.size(), 1U);
  const auto& waits = job.collective_waits[0];
  ASSERT_FALSE(waits.empty());
  // Of the two devices in each all-reduce, one arrives last and waits nothing.
  EXPECT_TRUE(std::any_of(waits.begin(), waits.end(), [](std::int64_t wait) { return wait == 0; }));
  EXPECT_TRUE(std::any_of(waits.begin(), waits.end(), [](std::int64_t wait) { return wait > 0; }));
  for (std::size_t i = 0; i < waits.size(); ++i) {
    const auto& collective = job.ranks[0].collectives[i];
    EXPECT_LE(waits[i], collective.end_ns - collective.start_ns);
  }
}

}  // namespace
}  // namespace gpuprof::job
