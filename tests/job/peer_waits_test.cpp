#include <gtest/gtest.h>

#include "gpuprof/idle/idle_cause.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "model_builder.hpp"

// Cross-rank peer_wait (DESIGN.md, "Idle causes"): idle time before a collective whose partner on another
// rank had not arrived yet, exact to the nanosecond.

namespace gpuprof::job {
namespace {

using idle::IdleCause;
using gpuprof::testing::ModelBuilder;

constexpr std::size_t at(IdleCause cause) { return static_cast<std::size_t>(cause); }
constexpr const char* kAllReduce = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

// One step on GPU 0: a kernel [100, 200), then the all-reduce from `collective_start` to 1500 (NCCL kernels
// of one collective end together, which also aligns the clocks with offset 0). The all-reduce is launched
// at `launch` by thread 1, whose only recorded activity is its launch calls.
RankSummary rank_of(std::int32_t rank, std::int64_t collective_start, std::int64_t launch) {
  ModelBuilder builder;
  builder.meta("rank", std::to_string(rank));
  builder.range(1, 0, 1600, "ProfilerStep#1");
  builder.api_call(1, 10, 20, 1).kernel(0, 7, 100, 200, "k1", 1);
  builder.api_call(1, launch, launch + 10, 2).kernel(0, 7, collective_start, 1500, kAllReduce, 2);
  analysis::AnalysisOptions options;
  options.warmup_steps = 0;
  options.keep_idle_intervals = true;
  return summarize_rank(builder.build(), options, rank);
}

idle::CauseTimes times(std::initializer_list<std::pair<IdleCause, std::int64_t>> entries) {
  idle::CauseTimes result{};
  for (const auto& [cause, ns] : entries) result[at(cause)] = ns;
  return result;
}

// Rank 1 starts its all-reduce 300 ns after rank 0 (800 vs 500).
//   rank 0 idles [200, 500): rank 1 had not arrived during any of it -> peer_wait 300 (was unrecorded 300).
//   rank 1 idles [200, 800): rank 0 arrived at 500 -> peer_wait 300; then its own delay: unrecorded
//   [500, 700) 200 and the launch at 700 -> launch_latency 100 (was unrecorded 500, launch_latency 100).
TEST(PeerWaits, IdleBeforeALatePartnerIsPeerWaitToTheNanosecond) {
  std::vector<RankSummary> ranks;
  ranks.push_back(rank_of(0, 500, 30));
  ranks.push_back(rank_of(1, 800, 700));
  const auto job = assemble_job(std::move(ranks));
  ASSERT_EQ(job.ranks.size(), 2U);
  for (const auto& offset : job.clocks.offsets) EXPECT_EQ(offset.offset_ns, 0) << offset.rank;
  const idle::CauseTimes expected[] = {
      times({{IdleCause::peer_wait, 300}}),
      times({{IdleCause::peer_wait, 300}, {IdleCause::unrecorded, 200}, {IdleCause::launch_latency, 100}}),
  };
  for (std::size_t rank = 0; rank < 2; ++rank) {
    const auto& analysis = job.ranks[rank].analysis;
    ASSERT_EQ(analysis.idle_intervals.size(), 1U) << rank;
    EXPECT_EQ(analysis.idle_intervals[0].causes, expected[rank]) << rank;
    // Every sum follows: the step, the device's totals (steady ones too) and the job's window samples.
    ASSERT_EQ(analysis.steps.size(), 1U);
    EXPECT_EQ(analysis.steps[0].breakdown.idle_in_steps_causes.cause_ns, expected[rank]) << rank;
    ASSERT_EQ(analysis.devices.size(), 1U);
    const auto& device = analysis.devices[0];
    EXPECT_EQ(device.total.idle_in_steps_causes.cause_ns, expected[rank]) << rank;
    EXPECT_EQ(device.steady.idle_in_steps_causes.cause_ns, expected[rank]) << rank;
    EXPECT_EQ(device.total.idle_in_steps_causes.total_ns(), device.total.idle_in_steps_ns) << rank;
    EXPECT_EQ(device.total.idle_in_steps_causes.intervals, 1) << rank;
    ASSERT_EQ(job.ranks[rank].windows.size(), 1U);
    EXPECT_EQ(job.ranks[rank].windows[0].breakdown.idle_in_steps_causes.cause_ns, expected[rank]) << rank;
  }
  EXPECT_EQ(idle::judge(job.ranks[0].analysis.idle_intervals[0].causes).label, IdleCause::peer_wait);
  // 300 of 600 ns: half is enough to name the cause.
  EXPECT_EQ(idle::judge(job.ranks[1].analysis.idle_intervals[0].causes).label, IdleCause::peer_wait);
  ASSERT_EQ(job.peer_waits.size(), 2U);
  EXPECT_EQ(job.peer_waits[0].rank, 0);
  EXPECT_EQ(job.peer_waits[0].waited_for, 1);
  EXPECT_EQ(job.peer_waits[0].peer_wait_ns, 300);
  EXPECT_EQ(job.peer_waits[1].rank, 1);
  EXPECT_EQ(job.peer_waits[1].waited_for, 0);
  EXPECT_EQ(job.peer_waits[1].peer_wait_ns, 300);
  EXPECT_TRUE(job.peer_waits[0].steady);
}

// The all-reduce opens step 2, so the idle time before it is step 1's batch gap: the gap's causes and label,
// step 1's gap tally and the window sample follow. Same times as above: rank 0's gap [200, 500) is peer_wait
// 300; rank 1's gap [200, 800) is peer_wait 300, unrecorded 200, launch_latency 100.
TEST(PeerWaits, BatchGapBeforeALatePartnerIsPeerWait) {
  const auto rank_with_gap = [](std::int32_t rank, std::int64_t collective_start, std::int64_t launch) {
    ModelBuilder builder;
    builder.range(1, 0, 300, "ProfilerStep#1");
    builder.range(1, 300, 1600, "ProfilerStep#2");
    builder.api_call(1, 10, 20, 1).kernel(0, 7, 100, 200, "k1", 1);
    builder.api_call(1, launch, launch + 10, 2).kernel(0, 7, collective_start, 1500, kAllReduce, 2);
    analysis::AnalysisOptions options;
    options.warmup_steps = 0;
    return summarize_rank(builder.build(), options, rank);
  };
  std::vector<RankSummary> ranks;
  ranks.push_back(rank_with_gap(0, 500, 300));
  ranks.push_back(rank_with_gap(1, 800, 700));
  const auto job = assemble_job(std::move(ranks));
  const idle::CauseTimes expected[] = {
      times({{IdleCause::peer_wait, 300}}),
      times({{IdleCause::peer_wait, 300}, {IdleCause::unrecorded, 200}, {IdleCause::launch_latency, 100}}),
  };
  for (std::size_t rank = 0; rank < 2; ++rank) {
    const auto& analysis = job.ranks[rank].analysis;
    ASSERT_EQ(analysis.gaps.size(), 1U) << rank;
    EXPECT_EQ(analysis.gaps[0].causes, expected[rank]) << rank;
    EXPECT_EQ(analysis.gaps[0].cause, IdleCause::peer_wait) << rank;
    ASSERT_EQ(analysis.steps.size(), 2U);
    EXPECT_EQ(analysis.steps[0].breakdown.batch_gap_causes.cause_ns, expected[rank]) << rank;
    EXPECT_EQ(analysis.steps[0].breakdown.idle_in_steps_causes.total_ns(), 0) << rank;
    EXPECT_EQ(analysis.devices.at(0).total.batch_gap_causes.cause_ns, expected[rank]) << rank;
    ASSERT_EQ(job.ranks[rank].windows.size(), 2U);
    EXPECT_EQ(job.ranks[rank].windows[0].gap_cause, IdleCause::peer_wait) << rank;
  }
  ASSERT_EQ(job.peer_waits.size(), 2U);
  EXPECT_TRUE(job.peer_waits[0].in_gap);
}

// A partner that arrived before the idle run began leaves it with its own causes; so does a job of one rank.
TEST(PeerWaits, PartnerAlreadyThereOrNoPartnerChangesNothing) {
  std::vector<RankSummary> ranks;
  ranks.push_back(rank_of(0, 500, 30));
  ranks.push_back(rank_of(1, 150, 30));  // rank 1's all-reduce starts before rank 0's idle time begins
  const auto job = assemble_job(std::move(ranks));
  EXPECT_EQ(job.ranks[0].analysis.idle_intervals.at(0).causes, times({{IdleCause::unrecorded, 300}}));
  std::vector<RankSummary> alone;
  alone.push_back(rank_of(0, 500, 30));
  const auto single = assemble_job(std::move(alone));
  EXPECT_TRUE(single.peer_waits.empty());
  EXPECT_EQ(single.ranks[0].analysis.idle_intervals.at(0).causes, times({{IdleCause::unrecorded, 300}}));
}

}  // namespace
}  // namespace gpuprof::job
