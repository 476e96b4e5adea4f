#include <numeric>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>

#include "gpuprof/trace/trace_sorting.hpp"
#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/idle/idle_cause.hpp"
#include "gpuprof/idle/phase_ranges.hpp"
#include "model_builder.hpp"

// Ranges that enclose their phase are no evidence of host work, as the step range is not (issue 39,
// analyzer/idle/README.md): a range holding two or more operations that themselves launch through a child,
// a range holding such a range, and a range its thread waited in while other threads launched the work.

namespace gpuprof::idle {
namespace {

using gpuprof::testing::ModelBuilder;

constexpr std::size_t at(IdleCause cause) { return static_cast<std::size_t>(cause); }
constexpr std::int64_t kMain = 1, kAutograd = 2;

// Main thread (every launch call 5 ns long, its kernel 100 ns after the call):
//   `## forward ##` [0, 1000) > DistributedDataParallel.forward [1, 999) > two modules:
//     Linear [10, 160) > aten::linear [20, 100) > aten::addmm [30, 90) launches at 40 (k1 140..150);
//                        aten::relu [110, 150) launches at 120 (k2 220..230)
//     Block [500, 900) > aten::mm [510, 560) launches at 520 (k3 620..630);
//                        aten::add [600, 650) > aten::add_ [610, 640) launches at 615 (k4 715..725)
//   `## backward ##` [2000, 3000): the autograd thread launches at 2100 and 2200 (k5, k6); main launches nothing.
//   aten::empty [2300, 2310): the autograd thread launches once in it (k7 at 2305).
trace::TraceModel fixture() {
  ModelBuilder builder;
  builder.range(kMain, 0, 1000, "## forward ##");
  builder.range(kMain, 1, 999, "DistributedDataParallel.forward");
  builder.range(kMain, 10, 160, "Linear");
  builder.range(kMain, 20, 100, "aten::linear");
  builder.range(kMain, 30, 90, "aten::addmm");
  builder.api_call(kMain, 40, 45, 1).kernel(0, 7, 140, 150, "k1", 1);
  builder.range(kMain, 110, 150, "aten::relu");
  builder.api_call(kMain, 120, 125, 2).kernel(0, 7, 220, 230, "k2", 2);
  builder.range(kMain, 500, 900, "Block");
  builder.range(kMain, 510, 560, "aten::mm");
  builder.api_call(kMain, 520, 525, 3).kernel(0, 7, 620, 630, "k3", 3);
  builder.range(kMain, 600, 650, "aten::add");
  builder.range(kMain, 610, 640, "aten::add_");
  builder.api_call(kMain, 615, 620, 4).kernel(0, 7, 715, 725, "k4", 4);
  builder.range(kMain, 2000, 3000, "## backward ##");
  builder.api_call(kAutograd, 2100, 2105, 5).kernel(0, 7, 2200, 2210, "k5", 5);
  builder.api_call(kAutograd, 2200, 2205, 6).kernel(0, 7, 2300, 2310, "k6", 6);
  builder.range(kMain, 2300, 2310, "aten::empty");
  builder.api_call(kAutograd, 2305, 2306, 7).kernel(0, 7, 2405, 2410, "k7", 7);
  return builder.build();
}

std::vector<std::string> phases_of(const trace::TraceModel& model) {
  const auto phases = phase_ranges(model, analysis::CorrelationIndex(model.api_calls));
  std::vector<std::string> names;
  for (std::size_t row = 0; row < phases.size(); ++row) {
    if (phases[row]) names.emplace_back(model.string(model.ranges.name[row]));
  }
  return names;
}

// The ranges and API calls in reverse row order: phases must not depend on it.
void reverse_host_rows(trace::TraceModel& model) {
  const auto reverse = [](auto& table) {
    std::vector<std::uint32_t> order(table.size());
    std::iota(order.rbegin(), order.rend(), 0U);
    trace::apply_order(table, order);
  };
  reverse(model.ranges), reverse(model.api_calls);
}

TEST(IdlePhaseRanges, RangesHoldingOperationsOrOtherThreadsWorkEncloseTheirPhase) {
  EXPECT_EQ(phases_of(fixture()),
            (std::vector<std::string>{"## forward ##", "DistributedDataParallel.forward", "## backward ##"}));
}

TEST(IdlePhaseRanges, RowOrderDoesNotMatter) {
  auto model = fixture();
  reverse_host_rows(model);
  auto names = phases_of(model);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names,
            (std::vector<std::string>{"## backward ##", "## forward ##", "DistributedDataParallel.forward"}));
}

// HostCauses hands over the launch calls it gathered: the same phases as gathering them again, rows reversed too.
TEST(IdlePhaseRanges, FromGatheredLaunchCallsEqualsFromTheCorrelations) {
  for (const bool reversed : {false, true}) {
    auto model = fixture();
    if (reversed) {
      reverse_host_rows(model);
    }
    const analysis::CorrelationIndex correlations(model.api_calls);
    const auto launched = launched_calls(model, correlations);
    EXPECT_EQ(std::count(launched.begin(), launched.end(), true), 7);
    EXPECT_EQ(phase_ranges(model, launched), phase_ranges(model, correlations));
  }
}

// Hostile rows: ranges that cross, end before they start, sit at the earliest time or hold nothing are never
// phases and never crash.
TEST(IdlePhaseRanges, CrossingAndInvertedRangesAreNoPhases) {
  ModelBuilder builder;
  builder.range(kMain, 0, 100, "a");
  builder.range(kMain, 50, 150, "b");  // crosses a: a sibling, not a child
  builder.range(kMain, 60, 70, "c");
  builder.api_call(kMain, 61, 62, 1).kernel(0, 7, 200, 210, "k1", 1);
  builder.range(kMain, 90, 80, "inverted");
  builder.range(kMain, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::min(), "earliest");
  builder.api_call(kMain, 85, 86, 2).kernel(0, 7, 300, 310, "k2", 2);
  EXPECT_TRUE(phases_of(builder.build()).empty());
}

// The GPU idles [630, 715) before k4, launched by the main thread at 615 inside aten::add_: [630, 715) is
// launch latency. Before k3 it idles [230, 620): k3 is launched at 520 (launch latency 100); Block, no phase
// (one of its operations launches through a child), holds [500, 520) (host_bound 20); [230, 500) lies only in
// DistributedDataParallel.forward and `## forward ##`, phases: unrecorded 270. Read as evidence before, they
// made it host_bound 290.
TEST(IdlePhaseRanges, TimeInAPhaseRangeAloneIsUnrecorded) {
  analysis::AnalysisOptions options;
  options.keep_idle_intervals = true;
  options.interval_host_activity = 10;
  const auto rank = analysis::analyze_rank(fixture(), options);
  const auto& intervals = rank.idle_intervals;
  const auto found = std::find_if(intervals.begin(), intervals.end(),
                                  [](const IdleInterval& interval) { return interval.start_ns == 230; });
  ASSERT_NE(found, intervals.end());
  EXPECT_EQ(found->end_ns, 620);
  CauseTimes expected{};
  expected[at(IdleCause::host_bound)] = 20;
  expected[at(IdleCause::unrecorded)] = 270;
  expected[at(IdleCause::launch_latency)] = 100;
  EXPECT_EQ(found->causes, expected);
  const auto activity = rank.interval_host_activity.find(static_cast<std::size_t>(found - intervals.begin()));
  ASSERT_NE(activity, rank.interval_host_activity.end());
  for (const auto& group : activity->second.groups) {
    EXPECT_NE(group.name, "DistributedDataParallel.forward");
    EXPECT_NE(group.name, "## forward ##");
  }
  EXPECT_EQ(activity->second.covered_ns, 620 - 500);  // Block's time: the phases cover nothing

}

}  // namespace
}  // namespace gpuprof::idle
