#include <gtest/gtest.h>

#include "gpuprof/analysis/data_loading_names.hpp"
#include "gpuprof/rank/gaps.hpp"
#include "gpuprof/analysis/launch_stats.hpp"
#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/analysis/steps.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "model_builder.hpp"

namespace gpuprof::analysis {
namespace {

using testing::ModelBuilder;

constexpr std::int64_t kThread = 1000;

// Five host steps on one thread, one kernel each on GPU 0; the host does
// something different in each gap:
//   after 0: stream synchronize            -> sync_wait (300 of 500 ns)
//   after 1: a DataLoader range (and a short sync) -> data_loading (350 of 500 ns)
//   after 2: blocking pageable upload that starts step 3 -> blocking_copy (420 of 450 ns)
//   after 3: only the step range on this thread (a sync on another thread, which
//            launches nothing) -> host_bound (410 of 500 ns)
// Each next kernel is launched 90 ns before it starts: launch_latency.
trace::TraceModel step_fixture() {
  ModelBuilder builder;
  const std::int64_t host_starts[] = {0, 1000, 2000, 2620, 4000};
  const std::int64_t host_ends[] = {1000, 2000, 2620, 4000, 5000};
  const std::int64_t launches[] = {10, 1010, 2010, 3010, 4010};
  for (int step = 0; step < 5; ++step) {
    builder.range(kThread, host_starts[step], host_ends[step], "step " + std::to_string(step));
    const std::int64_t gpu_start = (launches[step] / 1000) * 1000 + 100;
    builder.api_call(kThread, launches[step], launches[step] + 5, step + 1);
    builder.kernel(0, 7, gpu_start, gpu_start + 500, "gemm", step + 1);
  }
  builder.sync(kThread, 550, 900);
  builder.range(kThread, 1620, 2000, "DataLoader");
  builder.sync(kThread, 1600, 1650);
  builder.api_call(kThread, 2630, 3100, 100, "cudaMemcpy");
  builder.memcpy(0, 7, 3050, 3100, trace::CopyKind::host_to_device, 4096, trace::kUnknown32, 0,
                 trace::MemoryKind::pageable, 100);
  builder.sync(2000, 3600, 4100);
  return builder.build();
}

TEST(Steps, HostStepsProjectedThroughCorrelationIds) {
  const auto model = step_fixture();
  const CorrelationIndex correlations(model.api_calls);
  AnalysisOptions options;
  const auto detection = find_steps(model, options, correlations);
  EXPECT_TRUE(detection.pattern_matched);
  ASSERT_EQ(detection.steps.size(), 5U);
  const std::int64_t starts[] = {100, 1100, 2100, 3050, 4100};
  // Windows tile the timeline: each ends where the next step's GPU work starts.
  const std::int64_t ends[] = {1100, 2100, 3050, 4100, 4600};
  const std::int64_t last_work[] = {600, 1600, 2600, 3600, 4600};
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(detection.steps[i].device, 0);
    EXPECT_EQ(detection.steps[i].step, static_cast<std::int64_t>(i));
    EXPECT_EQ(detection.steps[i].start_ns, starts[i]) << i;
    EXPECT_EQ(detection.steps[i].end_ns, ends[i]) << i;
    EXPECT_EQ(detection.steps[i].last_work_ns, last_work[i]) << i;
    EXPECT_EQ(detection.steps[i].warmup, i == 0);
    EXPECT_EQ(detection.steps[i].host_thread, kThread);
  }
}

TEST(Gaps, EachCause) {
  const auto model = step_fixture();
  const auto gaps = analyze_rank(model, AnalysisOptions{}).gaps;
  ASSERT_EQ(gaps.size(), 4U);
  // The last gap: the host is inside nothing but its step ranges (which only mark the steps) until it launches.
  const IdleCause causes[] = {IdleCause::sync_wait, IdleCause::data_loading, IdleCause::blocking_copy,
                              IdleCause::unrecorded};
  const std::int64_t covered[] = {300, 350, 420, 410};
  const std::int64_t starts[] = {600, 1600, 2600, 3600};
  const std::int64_t ends[] = {1100, 2100, 3050, 4100};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(gaps[i].after_step, static_cast<std::int64_t>(i));
    EXPECT_EQ(gaps[i].start_ns, starts[i]);
    EXPECT_EQ(gaps[i].end_ns, ends[i]);
    EXPECT_EQ(gaps[i].idle_ns, ends[i] - starts[i]);
    EXPECT_EQ(gaps[i].cause, causes[i]) << i << ": " << to_string(gaps[i].cause);
    EXPECT_DOUBLE_EQ(gaps[i].coverage(), static_cast<double>(covered[i]) / static_cast<double>(gaps[i].idle_ns)) << i;
    EXPECT_EQ(idle::total_of(gaps[i].causes), gaps[i].idle_ns) << i;
    EXPECT_EQ(gaps[i].after_warmup, i == 0);
  }
}

TEST(Gaps, DataLoadingNames) {
  EXPECT_TRUE(is_data_loading_name("data"));
  EXPECT_TRUE(is_data_loading_name("DataLoader"));
  EXPECT_TRUE(is_data_loading_name("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"));
  EXPECT_FALSE(is_data_loading_name("forward"));
  EXPECT_FALSE(is_data_loading_name("metadata_update"));
}

TEST(Steps, GpuAnnotationsUsedDirectly) {
  ModelBuilder builder;
  builder.gpu_range(1, 100, 500, "ProfilerStep#7").gpu_range(1, 800, 900, "ProfilerStep#8");
  builder.range(5, 0, 950, "ProfilerStep#7");  // the host twin is ignored on an annotated device
  builder.api_call(5, 10, 20, 1).kernel(1, 7, 150, 450, "gemm", 1).kernel(1, 7, 820, 880, "gemm");
  const auto model = builder.build();
  const CorrelationIndex correlations(model.api_calls);
  const auto steps = find_steps(model, AnalysisOptions{}, correlations).steps;
  ASSERT_EQ(steps.size(), 2U);
  EXPECT_EQ(steps[0].step, 7);
  EXPECT_EQ(steps[0].start_ns, 100);
  EXPECT_EQ(steps[0].end_ns, 800);
  EXPECT_EQ(steps[0].last_work_ns, 500);
  EXPECT_TRUE(steps[0].from_gpu_annotation);
  EXPECT_EQ(steps[1].step, 8);
  const auto rank = analyze_rank(model, AnalysisOptions{});
  const auto& gaps = rank.gaps;
  ASSERT_EQ(gaps.size(), 1U);
  EXPECT_EQ(gaps[0].start_ns, 500);
  EXPECT_EQ(gaps[0].end_ns, 800);
  // The issuing thread 5 recorded only its step range, which marks the step and says nothing of what the host
  // did: the cause is unrecorded, not host_bound.
  EXPECT_EQ(gaps[0].cause, IdleCause::unrecorded);

  ASSERT_EQ(rank.devices.size(), 1U);
  // [100, 800) holds step 7 and the batch gap after it; [800, 900) is step 8.
  EXPECT_EQ(rank.devices[0].total.window_ns, 800);
  EXPECT_EQ(rank.devices[0].total.batch_gap_ns, 300);
  EXPECT_EQ(rank.devices[0].total.busy_ns, 360);
  EXPECT_EQ(rank.devices[0].steady.window_ns, 100);
}

// DESIGN.md, "Step": a GPU annotation that holds under 90 % of the GPU work its host step launched (ROCm
// traces truncate them) gives way to the host step's projection, with a notice naming the device.
TEST(Steps, TruncatedGpuAnnotationGivesWayToTheProjection) {
  ModelBuilder builder;
  builder.range(5, 0, 2000, "ProfilerStep#1").range(5, 2000, 4000, "ProfilerStep#2");
  builder.api_call(5, 10, 20, 1).kernel(2, 0, 100, 200, "a", 1);
  builder.api_call(5, 30, 40, 2).kernel(2, 0, 1000, 1100, "b", 2);  // outside the truncated annotation
  builder.api_call(5, 2010, 2020, 3).kernel(2, 0, 2100, 2200, "c", 3);
  // 150 ns of the 1000 ns step 1 launched, nothing of the 100 ns of step 2 (no annotation): 150 of 1100.
  builder.gpu_range(2, 100, 250, "ProfilerStep#1");
  const auto truncated = builder.build();
  const CorrelationIndex correlations(truncated.api_calls);
  const auto detection = find_steps(truncated, AnalysisOptions{}, correlations);
  ASSERT_EQ(detection.rejected.size(), 1U);
  EXPECT_EQ(detection.rejected[0].device, 2);
  EXPECT_DOUBLE_EQ(detection.rejected[0].coverage, 150.0 / 1100.0);
  ASSERT_EQ(detection.steps.size(), 2U);
  EXPECT_FALSE(detection.steps[0].from_gpu_annotation);
  EXPECT_EQ(detection.steps[0].start_ns, 100);
  EXPECT_EQ(detection.steps[0].last_work_ns, 1100);  // both kernels of step 1 inside its window
  const auto rank = analyze_rank(truncated, AnalysisOptions{});
  ASSERT_FALSE(rank.notices.empty());
  EXPECT_NE(rank.notices.front().find("GPU 2"), std::string::npos);
  EXPECT_NE(rank.notices.front().find("13.6%"), std::string::npos);

  ModelBuilder whole;
  whole.range(5, 0, 2000, "ProfilerStep#1");
  whole.api_call(5, 10, 20, 1).kernel(2, 0, 100, 200, "a", 1);
  whole.api_call(5, 30, 40, 2).kernel(2, 0, 1000, 1100, "b", 2);
  whole.gpu_range(2, 90, 1100, "ProfilerStep#1");
  const auto model = whole.build();
  const auto kept = find_steps(model, AnalysisOptions{}, CorrelationIndex(model.api_calls));
  EXPECT_TRUE(kept.rejected.empty());
  ASSERT_EQ(kept.steps.size(), 1U);
  EXPECT_TRUE(kept.steps[0].from_gpu_annotation);
}

TEST(Steps, PatternWithoutNumberUsesOrdinals) {
  const auto model = step_fixture();
  AnalysisOptions options;
  options.step_pattern = "^step";
  const auto steps = find_steps(model, options, CorrelationIndex(model.api_calls)).steps;
  ASSERT_EQ(steps.size(), 5U);
  EXPECT_EQ(steps[4].step, 4);
  options.step_pattern = "([";
  EXPECT_THROW(find_steps(model, options, CorrelationIndex(model.api_calls)), TraceError);
}

TEST(RankAnalysis, PatternMatchingNothingFallsBackToSpanWithNotice) {
  const auto model = step_fixture();
  AnalysisOptions options;
  options.step_pattern = "^iteration (\\d+)$";
  const auto rank = analyze_rank(model, options);
  ASSERT_EQ(rank.notices.size(), 1U);
  EXPECT_NE(rank.notices[0].find("matches no annotation"), std::string::npos);
  EXPECT_EQ(rank.devices[0].source, WindowSource::span);
  EXPECT_EQ(rank.devices[0].total.window_ns, 4500);
  EXPECT_TRUE(rank.steps.empty());
  EXPECT_TRUE(rank.gaps.empty());
}

TEST(RankAnalysis, SpanModeIgnoresSteps) {
  AnalysisOptions options;
  options.window = WindowMode::span;
  const auto rank = analyze_rank(step_fixture(), options);
  EXPECT_TRUE(rank.notices.empty());
  EXPECT_EQ(rank.devices[0].total.window_ns, 4500);
  EXPECT_EQ(rank.devices[0].total.busy_ns, 2550);
}

TEST(RankAnalysis, TraceStartIsTheFirstGpuActivity) {
  // Host ranges start at 0; the first kernel at 100. Reports show time points relative to it.
  EXPECT_EQ(analyze_rank(step_fixture(), AnalysisOptions{}).trace_start_ns, 100);
}

TEST(RankAnalysis, NoGpuActivityIsBadInput) {
  ModelBuilder builder;
  builder.range(1, 0, 10, "step 0");
  EXPECT_THROW(analyze_rank(builder.build(), AnalysisOptions{}), TraceError);
}

TEST(LaunchStats, DelayAndRate) {
  const auto model = step_fixture();
  const auto launches = analyze_launches(model, CorrelationIndex(model.api_calls));
  ASSERT_EQ(launches.size(), 1U);
  EXPECT_EQ(launches[0].device, 0);
  EXPECT_EQ(launches[0].delay.instances, 5);
  EXPECT_EQ(launches[0].delay.min_ns, 90);
  EXPECT_EQ(launches[0].delay.max_ns, 90);
  EXPECT_DOUBLE_EQ(launches[0].launches_per_second, 4.0 * 1e9 / 4000.0);
}

}  // namespace
}  // namespace gpuprof::analysis
