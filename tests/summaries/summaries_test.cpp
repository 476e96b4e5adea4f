#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/kernel_launches.hpp"
#include "gpuprof/analysis/launch_stats.hpp"
#include "gpuprof/summaries/host_summaries.hpp"
#include "gpuprof/summaries/launch_queue.hpp"
#include "gpuprof/summaries/waits.hpp"
#include "gpuprof/analysis/interval_set.hpp"
#include "model_builder.hpp"

namespace gpuprof::summaries {
namespace {

using gpuprof::testing::ModelBuilder;

const NamedDurations& row_named(const std::vector<NamedDurations>& rows, const std::string& name) {
  for (const auto& row : rows) {
    if (row.name == name) return row;
  }
  ADD_FAILURE() << "no row " << name;
  static const NamedDurations none;
  return none;
}

TEST(RangeSummary, PerDomainAndNameWithNsysStatistics) {
  ModelBuilder builder;
  builder.range(1, 0, 100, "forward").range(1, 200, 500, "forward").range(1, 600, 700, "backward");
  builder.range(1, 800, 810, "forward");
  builder.gpu_range(0, 0, 1'000'000, "forward");  // a GPU-side annotation is not a host range
  const auto rows = range_summary(builder.build());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "forward");  // largest total first
  EXPECT_EQ(rows[0].stats.instances, 3);
  EXPECT_EQ(rows[0].stats.total_ns, 410);
  EXPECT_EQ(rows[0].stats.min_ns, 10);
  EXPECT_EQ(rows[0].stats.max_ns, 300);
  EXPECT_DOUBLE_EQ(rows[0].stats.med_ns, 100);
  EXPECT_NEAR(rows[0].percent, 100.0 * 410 / 510, 1e-9);
  EXPECT_NEAR(rows[0].percent + rows[1].percent, 100.0, 1e-9);
}

TEST(ApiSummary, PerCallName) {
  ModelBuilder builder;
  builder.api_call(1, 0, 10, 1).api_call(1, 20, 40, 2).api_call(2, 50, 1050, 3, "cudaStreamSynchronize");
  const auto rows = api_summary(builder.build());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "cudaStreamSynchronize");
  EXPECT_EQ(row_named(rows, "cudaLaunchKernel").stats.instances, 2);
  EXPECT_EQ(row_named(rows, "cudaLaunchKernel").stats.total_ns, 30);
}

// Two kernels launched at 0 and 10 start at 100 and 300: latency 100 and 290; the
// queue holds 1 from 0 to 10, 2 from 10 to 100, 1 until 300.
TEST(LaunchQueue, LatencyPerKernelAndTheQueueOverTime) {
  ModelBuilder builder;
  builder.api_call(1, 0, 5, 1).api_call(1, 10, 15, 2);
  builder.kernel(0, 7, 100, 250, "gemm", 1).kernel(0, 7, 300, 400, "gemm", 2);
  builder.kernel(0, 7, 500, 600, "orphan");  // no launching call: in neither figure
  const auto model = builder.build();
  const analysis::CorrelationIndex index(model.api_calls);
  const auto latency = launch_latency_by_kernel(model, index);
  ASSERT_EQ(latency.size(), 1u);
  EXPECT_EQ(latency[0].name, "gemm");
  EXPECT_EQ(latency[0].stats.instances, 2);
  EXPECT_EQ(latency[0].stats.min_ns, 100);
  EXPECT_EQ(latency[0].stats.max_ns, 290);
  const auto queues = launch_queues(model, index);
  ASSERT_EQ(queues.size(), 1u);
  EXPECT_EQ(queues[0].kernels, 2);
  EXPECT_EQ(queues[0].max_depth, 2);
  EXPECT_NEAR(queues[0].mean_depth, (1.0 * 10 + 2.0 * 90 + 1.0 * 200) / 300, 1e-9);
  EXPECT_DOUBLE_EQ(queues[0].share_empty, 0);
  ASSERT_EQ(queues[0].series.size(), 4u);
  EXPECT_EQ(queues[0].series[1].time_ns, 10);
  EXPECT_EQ(queues[0].series[1].depth, 2);
  EXPECT_EQ(queues[0].series.back().depth, 0);
}

// Ten gemm kernels launched 1 ns apart wait in one queue: call i at i, kernel i from 1000 + 100 i to
// 1100 + 100 i. Their waits sum to 14455 ns in a 2000 ns trace; their union, [0, 1900], is the total.
TEST(LaunchQueue, APerKernelTotalIsTheUnionOfOverlappingWaits) {
  ModelBuilder builder;
  for (std::int64_t i = 0; i < 10; ++i) {
    builder.api_call(1, i, i + 1, i + 1).kernel(0, 7, 1000 + 100 * i, 1100 + 100 * i, "gemm", i + 1);
  }
  const auto model = builder.build();
  const auto latency = launch_latency_by_kernel(model, analysis::CorrelationIndex(model.api_calls));
  ASSERT_EQ(latency.size(), 1u);
  EXPECT_EQ(latency[0].stats.instances, 10);
  EXPECT_EQ(latency[0].stats.total_ns, 1900);
  EXPECT_LE(latency[0].stats.total_ns, 2000);  // the trace's span
  EXPECT_DOUBLE_EQ(latency[0].stats.avg_ns, 1445.5);  // the mean latency is still of each launch
}

// A kernel that starts before its call (clocks disagree) is left out of the per-device table, the
// per-kernel table and the queue alike, and counted as a problem.
TEST(LaunchQueue, AKernelStartingBeforeItsCallIsCountedTheSameInEveryTable) {
  ModelBuilder builder;
  builder.api_call(1, 0, 5, 1).api_call(1, 10, 15, 2).api_call(1, 500, 505, 3);
  builder.kernel(0, 7, 100, 150, "gemm", 1).kernel(0, 7, 200, 250, "gemm", 2).kernel(0, 7, 300, 350, "gemm", 3);
  const auto model = builder.build();
  const analysis::CorrelationIndex index(model.api_calls);
  const auto devices = analysis::analyze_launches(model, index);
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].delay.instances, 2);
  EXPECT_EQ(devices[0].starts_before_call, 1);
  EXPECT_EQ(devices[0].delay.min_ns, 100);
  const auto latency = launch_latency_by_kernel(model, index);
  ASSERT_EQ(latency.size(), 1u);
  EXPECT_EQ(latency[0].stats.instances, devices[0].delay.instances);
  const auto queues = launch_queues(model, index);
  ASSERT_EQ(queues.size(), 1u);
  EXPECT_EQ(queues[0].kernels, devices[0].delay.instances);
}

// One cudaGraphLaunch (call 2, at 10) runs three graph kernels back to back, a driver cuGraphLaunch one more;
// a kernel launched on its own (call 1) is the only launch. The graph's kernels share the call, so their "latency" would be the time spent
// behind the earlier nodes (290, 490, 690 ns) and the launch rate three launches for one call: they are left
// out of the per-device table, the per-kernel table and the queue alike, and counted apart.
TEST(LaunchQueue, KernelsOfAGraphLaunchAreNotLaunchesInAnyTable) {
  ModelBuilder builder;
  builder.api_call(1, 0, 5, 1).api_call(1, 10, 15, 2, "cudaGraphLaunch");
  builder.kernel(0, 7, 100, 200, "gemm", 1);
  builder.kernel(0, 7, 300, 400, "node_a", 2).kernel(0, 7, 500, 600, "node_b", 2).kernel(0, 7, 700, 800, "node_c", 2);
  builder.api_call(1, 900, 905, 3, "cuGraphLaunch_ptsz").kernel(0, 7, 1000, 1100, "node_d", 3);
  const auto model = builder.build();  // no graph node ids, as a report loads a trace and imports give them
  const analysis::CorrelationIndex index(model.api_calls);
  const auto devices = analysis::analyze_launches(model, index);
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].delay.instances, 1);
  EXPECT_EQ(devices[0].delay.max_ns, 100);
  EXPECT_EQ(devices[0].graph_kernels, 4);
  const auto latency = launch_latency_by_kernel(model, index);
  ASSERT_EQ(latency.size(), 1u);
  EXPECT_EQ(latency[0].name, "gemm");
  const auto queues = launch_queues(model, index);
  ASSERT_EQ(queues.size(), 1u);
  EXPECT_EQ(queues[0].kernels, 1);
  EXPECT_EQ(queues[0].max_depth, 1);
}

// A series thinned to a few points keeps every peak: the deepest point of each slice.
TEST(LaunchQueue, AThinnedSeriesKeepsThePeaks) {
  ModelBuilder builder;
  std::int64_t correlation = 1;
  for (int burst = 0; burst < 50; ++burst) {
    const std::int64_t t = burst * 10'000;
    for (int k = 0; k < 5; ++k) builder.api_call(1, t + k, t + k + 1, correlation++);
    for (int k = 0; k < 5; ++k) builder.kernel(0, 7, t + 1'000 + k * 100, t + 1'000 + k * 100 + 50, "k", correlation - 5 + k);
  }
  const auto model = builder.build();
  const analysis::CorrelationIndex index(model.api_calls);
  const auto queue = launch_queues(model, index, 20).at(0);
  EXPECT_LE(queue.series.size(), 20u);
  EXPECT_EQ(queue.max_depth, 5);
  std::int64_t deepest = 0;
  for (const auto& point : queue.series) deepest = std::max(deepest, point.depth);
  EXPECT_EQ(deepest, 5);
  EXPECT_GT(queue.share_empty, 0.5);  // the GPU ran 5 short kernels a burst and waited in between
}

// Each kernel's launch found once gives what kernel_launch finds, whatever its kind: counted (with a latency
// past 32 bits too), no call, a graph's node, a kernel that starts before its call.
TEST(KernelLaunches, GiveWhatKernelLaunchFindsForEveryKindOfLaunch) {
  ModelBuilder builder;
  constexpr std::int64_t kFiveSeconds = 5'000'000'000;
  builder.api_call(1, 0, 5, 1).api_call(1, 10, 15, 2).api_call(1, 20, 25, 3, "cudaGraphLaunch");
  builder.api_call(1, 1000, 1005, 4).api_call(1, 30, 35, 5);
  builder.kernel(0, 7, 100, 250, "gemm", 1);                         // counted, 100
  builder.kernel(0, 7, 10 + kFiveSeconds, 11 + kFiveSeconds, "gemm", 2);  // counted, past 32 bits
  builder.kernel(0, 8, 300, 400, "node", 3);                         // a graph's node
  builder.kernel(0, 8, 500, 600, "early", 4);                        // starts before its call
  builder.kernel(1, 9, 700, 800, "orphan");                          // no call
  builder.kernel(1, 9, 900, 950, "gemm", 99);                        // a correlation with no call
  builder.kernel(1, 9, 960, 990, "gemm", 5);                         // counted, 930
  const auto model = builder.build();
  const analysis::CorrelationIndex index(model.api_calls);
  const analysis::GraphLaunchNames graph(model);
  const analysis::KernelLaunches launches(model, index);
  std::map<analysis::LaunchStatus, int> kinds;
  for (std::size_t row = 0; row < model.kernels.size(); ++row) {
    const auto expected = analysis::kernel_launch(model, index, graph, row);
    const auto found = launches(row);
    EXPECT_EQ(found.status, expected.status) << row;
    EXPECT_EQ(found.call_start_ns, expected.call_start_ns) << row;
    EXPECT_EQ(found.latency_ns, expected.latency_ns) << row;
    EXPECT_EQ(launches.counted(row), expected.status == analysis::LaunchStatus::counted) << row;
    ++kinds[expected.status];
  }
  EXPECT_EQ(kinds[analysis::LaunchStatus::counted], 3);
  EXPECT_EQ(kinds[analysis::LaunchStatus::no_call], 2);
  EXPECT_EQ(kinds[analysis::LaunchStatus::graph_node], 1);
  EXPECT_EQ(kinds[analysis::LaunchStatus::starts_before_call], 1);
}

// Latencies from 2^32 ns up to 2^40 are kept in two parts (kernel_launches.hpp): low bits that read as the
// table's codes (no call, not counted, found again) must still give the latency, and the edges of that span
// (just below 2^32, from 2^40 on) what kernel_launch finds.
TEST(KernelLaunches, KeepLatenciesPastThirtyTwoBitsWhateverTheirLowBits) {
  ModelBuilder builder;
  constexpr std::int64_t k32 = std::int64_t{1} << 32, k40 = std::int64_t{1} << 40;
  const std::vector<std::int64_t> latencies{k32 - 3, k32 - 1, k32, k32 + 0xFFFFFFFF, k32 + 0xFFFFFFFE,
                                            k32 + 0xFFFFFFFD, 3 * k32 + 12345, k40 - 1, k40, 2 * k40};
  for (std::size_t i = 0; i < latencies.size(); ++i) {
    const auto call = static_cast<std::int64_t>(i) * 10;
    const auto correlation = static_cast<std::int64_t>(i) + 1;
    builder.api_call(1, call, call + 5, correlation);
    builder.kernel(0, 7 + static_cast<std::int32_t>(i), call + latencies[i], call + latencies[i] + 1, "gemm", correlation);
  }
  const auto model = builder.build();
  const analysis::CorrelationIndex index(model.api_calls);
  const analysis::GraphLaunchNames graph(model);
  const analysis::KernelLaunches launches(model, index);
  ASSERT_EQ(model.kernels.size(), latencies.size());
  for (std::size_t row = 0; row < model.kernels.size(); ++row) {
    const auto expected = analysis::kernel_launch(model, index, graph, row);
    ASSERT_EQ(expected.status, analysis::LaunchStatus::counted) << row;
    const auto found = launches(row);
    EXPECT_EQ(found.status, expected.status) << row;
    EXPECT_EQ(found.call_start_ns, expected.call_start_ns) << row;
    EXPECT_EQ(found.latency_ns, expected.latency_ns) << row;
    EXPECT_TRUE(launches.counted(row)) << row;
  }
}

// Launch latency per kernel keeps latencies in 32 bits only where every one fits (KernelLaunches says so): a
// latency just below the codes, one past 32 bits and one found again each give the table the same figures as
// the latencies themselves.
TEST(LaunchQueue, LatencyTableKeepsEveryLatencyWhateverItsWidth) {
  constexpr std::int64_t k32 = std::int64_t{1} << 32, k40 = std::int64_t{1} << 40;
  for (const std::int64_t longest : {std::int64_t{1000}, k32 - 4, k32 + 7, 2 * k40}) {
    ModelBuilder builder;
    const std::vector<std::int64_t> latencies{100, 300, longest, 200};
    for (std::size_t i = 0; i < latencies.size(); ++i) {
      const auto call = static_cast<std::int64_t>(i) * 10;
      builder.api_call(1, call, call + 5, static_cast<std::int64_t>(i) + 1);
      builder.kernel(0, 7, call + latencies[i], call + latencies[i] + 1, "gemm", static_cast<std::int64_t>(i) + 1);
    }
    const auto model = builder.build();
    const analysis::CorrelationIndex index(model.api_calls);
    EXPECT_EQ(analysis::KernelLaunches(model, index).latencies_fit_32_bits(), longest < k32 - 3) << longest;
    const auto rows = launch_latency_by_kernel(model, index);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].stats.instances, 4);
    EXPECT_EQ(rows[0].stats.max_ns, std::max<std::int64_t>(longest, 300)) << longest;
    EXPECT_EQ(rows[0].stats.min_ns, std::min<std::int64_t>(longest, 100)) << longest;
    EXPECT_DOUBLE_EQ(rows[0].stats.med_ns, 250.0) << longest;  // 200 and 300 in the middle, however long the longest
    EXPECT_DOUBLE_EQ(rows[0].stats.avg_ns, static_cast<double>(600 + longest) / 4.0) << longest;
  }
}

// A group's waits merged as they come (waits.hpp) cover what the union of every wait covers, whatever their order:
// a few runs each in launch order (a group's waits, stream after stream) keep a few pieces, any order the same total.
TEST(WaitUnion, TotalIsTheUnionOfEveryWaitInAnyOrder) {
  std::mt19937_64 random(38);
  for (int round = 0; round < 300; ++round) {
    std::vector<std::pair<std::int64_t, std::int64_t>> waits;
    const int runs = 1 + static_cast<int>(random() % 5);
    for (int run = 0; run < runs; ++run) {
      std::int64_t from = static_cast<std::int64_t>(random() % 1000) - 500;
      const int count = static_cast<int>(random() % 40);
      for (int k = 0; k < count; ++k) {
        from += static_cast<std::int64_t>(random() % 30);  // ties, touching and disjoint waits
        waits.emplace_back(from, from + static_cast<std::int64_t>(random() % 60));  // some of them empty
      }
    }
    if (round % 3 == 2) std::shuffle(waits.begin(), waits.end(), random);
    std::vector<analysis::Interval> intervals;
    for (const auto& [from, to] : waits) intervals.push_back({from, to});
    const auto expected = analysis::total_length(analysis::normalize(intervals));
    WaitUnion merged;
    for (const auto& [from, to] : waits) merged.add(from, to);
    std::vector<WaitUnion::Piece> buffer;
    EXPECT_EQ(merged.total(buffer), expected) << "round " << round;
    if (round % 3 != 2) EXPECT_LE(merged.pieces(), waits.size());
  }
  // Ten waits launched 1 ns apart and queued behind each other: one piece, as launch_latency_by_kernel keeps them.
  WaitUnion queue;
  for (std::int64_t i = 0; i < 10; ++i) queue.add(i, 1000 + 100 * i);
  EXPECT_EQ(queue.pieces(), 1u);
  std::vector<WaitUnion::Piece> buffer;
  EXPECT_EQ(queue.total(buffer), 1900);
}

}  // namespace
}  // namespace gpuprof::summaries
