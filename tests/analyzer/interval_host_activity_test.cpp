#include <numeric>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "gpuprof/trace/trace_sorting.hpp"
#include "gpuprof/analysis/analysis_options.hpp"
#include "gpuprof/idle/interval_host_activity.hpp"
#include "model_builder.hpp"

namespace gpuprof::idle {
namespace {

using gpuprof::testing::ModelBuilder;

// A stretch [1000, 2000) of idle GPU time. Thread 1 issues the GPU work, thread 2 loads data, thread 3
// launches nothing:
//   thread 1: the step range 900..3000 (marks the step: left out), a sync call 1500..1800, two launches
//             1900..1950 and 1990..2100 (10 ns inside)
//   thread 2: a data-loading range 1100..1500 (read from every thread)
//   thread 3: an API call over the whole stretch (not an issuing thread: left out)
trace::TraceModel fixture() {
  ModelBuilder builder;
  builder.range(1, 900, 3000, "ProfilerStep#2");
  builder.range(2, 1100, 1500, "data");
  builder.api_call(1, 1500, 1800, 1, "cudaStreamSynchronize");
  builder.api_call(1, 1900, 1950, 2).kernel(0, 7, 2100, 2200, "k", 2);
  builder.api_call(1, 1990, 2100, 3).kernel(0, 7, 2300, 2400, "k", 3);
  builder.api_call(3, 1000, 2000, 4, "cudaGetDevice");
  return builder.build();
}

TEST(IntervalHostActivity, GroupsTheIssuingThreadsEventsByOverlap) {
  const auto model = fixture();
  const analysis::StepPattern steps(analysis::AnalysisOptions{}.step_pattern);
  const auto activity = host_activity_during(model, {1}, steps, 1000, 2000);
  EXPECT_EQ(activity.covered_ns, 400 + 300 + 50 + 10);
  ASSERT_EQ(activity.groups.size(), 3U);
  EXPECT_EQ(activity.groups[0].name, "data");
  EXPECT_EQ(activity.groups[0].kind, HostEventKind::range);
  EXPECT_EQ(activity.groups[0].thread, 2);
  EXPECT_EQ(activity.groups[0].overlap_ns, 400);
  EXPECT_EQ(activity.groups[0].cause, IdleCause::data_loading);
  EXPECT_EQ(activity.groups[1].name, "cudaStreamSynchronize");
  EXPECT_EQ(activity.groups[1].overlap_ns, 300);
  EXPECT_EQ(activity.groups[1].cause, IdleCause::sync_wait);
  EXPECT_EQ(activity.groups[2].name, "cudaLaunchKernel");
  EXPECT_EQ(activity.groups[2].count, 2);
  EXPECT_EQ(activity.groups[2].overlap_ns, 60);
  EXPECT_EQ(activity.groups[2].cause, IdleCause::host_bound);
  EXPECT_EQ(activity.groups_left_out, 0);
  const auto text = describe_host_activity(activity);
  EXPECT_NE(text.find("Host activity under 76.0% of it (760 ns)"), std::string::npos) << text;
  EXPECT_NE(text.find("range data on thread 2: 1 event, 400 ns (40.0% of it; data_loading)"), std::string::npos)
      << text;
}

TEST(IntervalHostActivity, KeepsTheLargestGroupsAndCountsTheRest) {
  const auto model = fixture();
  const analysis::StepPattern steps(analysis::AnalysisOptions{}.step_pattern);
  const auto activity = host_activity_during(model, {1}, steps, 1000, 2000, 1);
  ASSERT_EQ(activity.groups.size(), 1U);
  EXPECT_EQ(activity.groups_left_out, 2);
  EXPECT_EQ(activity.covered_ns, 760);  // the coverage counts every event, listed or not
  EXPECT_NE(describe_host_activity(activity).find("and 2 more"), std::string::npos);
}

TEST(IntervalHostActivity, NothingRecordedSaysSo) {
  const auto model = fixture();
  const analysis::StepPattern steps(analysis::AnalysisOptions{}.step_pattern);
  const auto activity = host_activity_during(model, {1}, steps, 5000, 6000);
  EXPECT_TRUE(activity.groups.empty());
  EXPECT_EQ(activity.covered_ns, 0);
  EXPECT_NE(describe_host_activity(activity).find("none recorded"), std::string::npos);
}

// One index answers every stretch as a reading of every row does: a call that began long before the
// stretch (longer than any other) is found, and so is one whose times span the whole int64 range.
TEST(IntervalHostActivity, TheIndexFindsLongAndHostileEventsAndReadsEveryStretch) {
  ModelBuilder builder;
  builder.api_call(1, 0, 1'000'000, 1, "cudaDeviceSynchronize");
  for (int i = 0; i < 100; ++i) builder.api_call(1, 2000 + 10 * i, 2005 + 10 * i, 10 + i);
  builder.api_call(1, std::numeric_limits<std::int64_t>::min() + 1, std::numeric_limits<std::int64_t>::max(), 500,
                   "cudaStreamSynchronize");
  const auto model = builder.build();
  const HostActivityIndex index(model, {1}, [](trace::StringId) { return false; }, {});
  const auto activity = index.during(5000, 6000);
  EXPECT_EQ(activity.covered_ns, 1000);
  ASSERT_EQ(activity.groups.size(), 2U);
  EXPECT_EQ(activity.groups[0].overlap_ns, 1000);
  EXPECT_EQ(activity.groups[1].overlap_ns, 1000);
  const analysis::StepPattern steps(analysis::AnalysisOptions{}.step_pattern);
  for (std::int64_t start = 1990; start < 3100; start += 37) {
    const auto whole = host_activity_during(model, {1}, steps, start, start + 50);
    const auto indexed = index.during(start, start + 50);
    EXPECT_EQ(indexed.covered_ns, whole.covered_ns) << start;
    EXPECT_EQ(indexed.groups.size(), whole.groups.size()) << start;
  }
}

// A table in order but for one row of hostile times (start near the int64 minimum) is out of order: read
// whole, not searched (a search from the end of the first rows would find nothing).
TEST(IntervalHostActivity, ARowOfHostileTimesStillMarksItsTableOutOfOrder) {
  ModelBuilder builder;
  for (int i = 0; i < 4; ++i) builder.api_call(1, 9000 + 100 * i, 9050 + 100 * i, 1 + i);
  builder.api_call(1, std::numeric_limits<std::int64_t>::min() + 1, std::numeric_limits<std::int64_t>::max(), 10,
                   "cudaStreamSynchronize");
  builder.api_call(1, 100, 150, 11, "cudaMemcpy");
  auto model = builder.build();
  // Sorted: the hostile row, 100, 9000..9300. Put in the order 9000..9300, the hostile row, 100.
  std::vector<std::uint32_t> order(model.api_calls.size());
  std::iota(order.begin(), order.end(), 0U);
  std::rotate(order.begin(), order.begin() + 2, order.end());
  trace::apply_order(model.api_calls, order);
  ASSERT_EQ(model.api_calls.start_ns.back(), 100);
  const HostActivityIndex index(model, {1}, [](trace::StringId) { return false; }, {});
  const auto activity = index.during(100, 200);
  EXPECT_EQ(activity.covered_ns, 100);
  EXPECT_EQ(activity.groups.size(), 2U);
}

// An asynchronous copy from pageable memory holds the host: its call is listed as the blocking_copy the
// interval's tally counts it as, not by its name (cudaMemcpyAsync reads as host_bound).
TEST(IntervalHostActivity, APageableCopysCallIsListedAsABlockingCopy) {
  ModelBuilder builder;
  builder.api_call(1, 1000, 1500, 7, "cudaMemcpyAsync");
  builder.memcpy(0, 7, 1600, 1700, trace::CopyKind::host_to_device, 4096, trace::kUnknown32, 0,
                 trace::MemoryKind::pageable, 7);
  builder.api_call(1, 1500, 1550, 8, "cudaMemcpyAsync");  // its copy is from pinned memory
  builder.memcpy(0, 7, 1700, 1800, trace::CopyKind::host_to_device, 4096, trace::kUnknown32, 0,
                 trace::MemoryKind::pinned, 8);
  const auto model = builder.build();
  const analysis::StepPattern steps(analysis::AnalysisOptions{}.step_pattern);
  const auto activity = host_activity_during(model, {1}, steps, 900, 1600);
  ASSERT_EQ(activity.groups.size(), 2U);
  EXPECT_EQ(activity.groups[0].overlap_ns, 500);
  EXPECT_EQ(activity.groups[0].cause, IdleCause::blocking_copy);
  EXPECT_EQ(activity.groups[1].overlap_ns, 50);
  EXPECT_EQ(activity.groups[1].cause, IdleCause::host_bound);
}

}  // namespace
}  // namespace gpuprof::idle
