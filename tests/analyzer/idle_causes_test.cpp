#include <gtest/gtest.h>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/idle/host_blockers.hpp"
#include "gpuprof/idle/idle_cause.hpp"
#include "model_builder.hpp"

namespace gpuprof::idle {
namespace {

using gpuprof::testing::ModelBuilder;

constexpr std::size_t at(IdleCause cause) { return static_cast<std::size_t>(cause); }

CauseTimes times(std::initializer_list<std::pair<IdleCause, std::int64_t>> entries) {
  CauseTimes result{};
  for (const auto& [cause, ns] : entries) result[at(cause)] = ns;
  return result;
}

TEST(IdleCause, HalfOrMoreNamesTheCauseElseMixed) {
  EXPECT_EQ(judge(times({{IdleCause::sync_wait, 50}, {IdleCause::host_bound, 50}})).label, IdleCause::sync_wait);
  const auto mixed = judge(times({{IdleCause::sync_wait, 40}, {IdleCause::host_bound, 35}, {IdleCause::unrecorded, 25}}));
  EXPECT_EQ(mixed.label, IdleCause::mixed);
  EXPECT_EQ(mixed.covered_ns, 40);
  EXPECT_EQ(judge(times({{IdleCause::launch_latency, 51}, {IdleCause::unrecorded, 49}})).label,
            IdleCause::launch_latency);
}

TEST(IdleCause, TallyAddsUpByLabelAndByCause) {
  IdleTally tally;
  tally.add(times({{IdleCause::blocking_copy, 90}, {IdleCause::unrecorded, 10}}));
  tally.add(times({{IdleCause::sync_wait, 30}, {IdleCause::host_bound, 30}, {IdleCause::unrecorded, 40}}));
  EXPECT_EQ(tally.total_ns(), 200);
  EXPECT_EQ(tally.label_ns[at(IdleCause::blocking_copy)], 100);
  EXPECT_EQ(tally.label_ns[at(IdleCause::mixed)], 100);
  EXPECT_DOUBLE_EQ(tally.coverage(IdleCause::blocking_copy), 0.9);
  EXPECT_DOUBLE_EQ(tally.coverage(IdleCause::mixed), 0.4);  // its largest cause, unrecorded, covers 40
  EXPECT_EQ(tally.explained_ns(), 100);
  EXPECT_EQ(tally.intervals, 2);
}

// One step on GPU 0, host thread 1; the GPU idles four times inside the step:
//   [200, 300): the next kernel is launched at 250, the host was in an op until 240 -> host_bound 40, then
//               nothing recorded 10 (the step range marks the step, it is no sign of work), launch 50
//   [400, 600): a DtoH copy to pageable memory holds the host 380..590 -> blocking_copy 190 (its own GPU part
//               starts at 600 and is not a launch), then 10 ns with nothing recorded
//   [650, 800): the next kernel was queued at 100, long before: its wait is the host's, a sync 640..800
//   [900, 1000): a peer's collective call on the host 900..960, then launch of the kernel at 960
trace::TraceModel idle_fixture() {
  ModelBuilder builder;
  constexpr std::int64_t kThread = 1;
  builder.range(kThread, 0, 1200, "ProfilerStep#1");
  builder.api_call(kThread, 10, 20, 1).kernel(0, 7, 100, 200, "k1", 1);
  builder.range(kThread, 150, 240, "aten::add");  // the op before the launch; the step range holds the rest
  builder.api_call(kThread, 250, 260, 2).kernel(0, 7, 300, 400, "k2", 2);
  builder.api_call(kThread, 380, 590, 3, "cudaMemcpyAsync");
  builder.memcpy(0, 8, 600, 650, trace::CopyKind::device_to_host, 704, 0, trace::kUnknown32,
                 trace::MemoryKind::device, 3);
  builder.api_call(kThread, 100, 110, 4).kernel(0, 7, 800, 900, "k3", 4);
  builder.sync(kThread, 640, 800);
  builder.api_call(kThread, 900, 960, 5, "ncclAllReduce");
  builder.api_call(kThread, 960, 970, 6).kernel(0, 7, 1000, 1100, "k4", 6);
  auto model = builder.build();
  // The builder knows the source side only; the host side of this DtoH is pageable memory.
  for (auto& kind : model.memcpys.dst_memory_kind) kind = trace::MemoryKind::pageable;
  return model;
}

TEST(IdleAttribution, EachIntervalGetsItsCauses) {
  analysis::AnalysisOptions options;
  options.keep_idle_intervals = true;
  options.warmup_steps = 0;
  const auto rank = analysis::analyze_rank(idle_fixture(), options);
  const auto& intervals = rank.idle_intervals;
  ASSERT_EQ(intervals.size(), 4U);
  const CauseTimes expected[] = {
      times({{IdleCause::host_bound, 40}, {IdleCause::launch_latency, 50}, {IdleCause::unrecorded, 10}}),
      times({{IdleCause::blocking_copy, 190}, {IdleCause::unrecorded, 10}}),
      times({{IdleCause::sync_wait, 150}}),
      times({{IdleCause::peer_wait, 60}, {IdleCause::launch_latency, 40}}),
  };
  const IdleCause labels[] = {IdleCause::launch_latency, IdleCause::blocking_copy, IdleCause::sync_wait,
                              IdleCause::peer_wait};
  for (std::size_t i = 0; i < intervals.size(); ++i) {
    EXPECT_EQ(intervals[i].causes, expected[i]) << i;
    EXPECT_EQ(judge(intervals[i].causes).label, labels[i]) << i;
    EXPECT_EQ(total_of(intervals[i].causes), intervals[i].end_ns - intervals[i].start_ns) << i;
    EXPECT_FALSE(intervals[i].in_gap);
  }
  ASSERT_EQ(rank.devices.size(), 1U);
  const auto& device = rank.devices[0].total;
  EXPECT_EQ(device.idle_in_steps_causes.total_ns(), device.idle_in_steps_ns);
  EXPECT_EQ(device.idle_in_steps_ns, 100 + 200 + 150 + 100);
}

TEST(IdleAttribution, HostBlockerNamesThePageableCopy) {
  const auto rank = analysis::analyze_rank(idle_fixture(), {});
  ASSERT_FALSE(rank.host_blockers.empty());
  const auto& blocker = rank.host_blockers.front();
  EXPECT_EQ(blocker.cause, IdleCause::blocking_copy);
  EXPECT_EQ(blocker.call, "cudaMemcpyAsync");
  EXPECT_EQ(blocker.detail, "DtoH to pageable memory, 704 B");
  EXPECT_EQ(blocker.idle_ns, 190);  // 400..590 of 380..590 the GPU was idle
  EXPECT_EQ(blocker.count, 1);
  EXPECT_EQ(blocker.longest_ns, 210);
}

// The same call blocking the host again and again is one kind of blocker: counted, with its shortest and
// longest instance and the idle time under all of them.
TEST(IdleAttribution, HostBlockersOfOneKindAddUp) {
  ModelBuilder builder;
  builder.api_call(1, 0, 10, 1).kernel(0, 7, 20, 100, "a", 1);
  builder.api_call(1, 100, 300, 2, "cudaMemcpyAsync");
  builder.memcpy(0, 7, 300, 310, trace::CopyKind::device_to_host, 704, 0, trace::kUnknown32, trace::MemoryKind::device, 2);
  builder.api_call(1, 310, 320, 3).kernel(0, 7, 330, 400, "b", 3);
  builder.api_call(1, 400, 500, 4, "cudaMemcpyAsync");
  builder.memcpy(0, 7, 500, 510, trace::CopyKind::device_to_host, 704, 0, trace::kUnknown32, trace::MemoryKind::device, 4);
  builder.api_call(1, 510, 520, 5).kernel(0, 7, 530, 600, "c", 5);
  auto model = builder.build();
  for (auto& kind : model.memcpys.dst_memory_kind) kind = trace::MemoryKind::pageable;
  const auto rank = analysis::analyze_rank(model, {});
  ASSERT_EQ(rank.host_blockers.size(), 1U);
  const auto& blocker = rank.host_blockers.front();
  EXPECT_EQ(blocker.count, 2);
  EXPECT_EQ(blocker.shortest_ns, 100);
  EXPECT_EQ(blocker.longest_ns, 200);
  EXPECT_EQ(blocker.idle_ns, 200 + 100);  // 100..300 and 400..500: the GPU did nothing under either call
}

TEST(IdleAttribution, BatchGapSplitsFromIdleInStep) {
  ModelBuilder builder;
  builder.range(1, 0, 500, "step 1").range(1, 500, 1000, "step 2");
  builder.api_call(1, 10, 20, 1).kernel(0, 7, 100, 200, "a", 1);
  builder.api_call(1, 290, 300, 2).kernel(0, 7, 300, 400, "b", 2);
  builder.range(1, 420, 640, "DataLoader");
  builder.api_call(1, 650, 660, 3).kernel(0, 7, 700, 800, "c", 3);
  analysis::AnalysisOptions options;
  options.warmup_steps = 0;
  const auto rank = analysis::analyze_rank(builder.build(), options);
  ASSERT_EQ(rank.gaps.size(), 1U);
  EXPECT_EQ(rank.gaps[0].cause, IdleCause::data_loading);
  // The step ranges mark the steps: outside the loader the host's activity is unrecorded.
  EXPECT_EQ(rank.gaps[0].causes, times({{IdleCause::data_loading, 220},
                                        {IdleCause::launch_latency, 50},
                                        {IdleCause::unrecorded, 30}}));
  EXPECT_DOUBLE_EQ(rank.gaps[0].coverage(), 220.0 / 300.0);
  const auto& first = rank.steps[0].breakdown;
  EXPECT_EQ(first.idle_in_steps_causes.cause_ns,
            times({{IdleCause::launch_latency, 10}, {IdleCause::unrecorded, 90}}));
}

}  // namespace
}  // namespace gpuprof::idle
