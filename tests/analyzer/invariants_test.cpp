#include <gtest/gtest.h>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::analysis {
namespace {

// The parts of a breakdown are disjoint: computation, exposed comm and exposed
// memcpy add up to busy, and busy never exceeds the window.
void expect_consistent(const Breakdown& b) {
  EXPECT_GE(b.idle_ns, 0);
  EXPECT_LE(b.busy_ns, b.window_ns);
  EXPECT_EQ(b.busy_ns + b.idle_ns, b.window_ns);
  EXPECT_EQ(b.computation_ns + b.exposed_comm_ns + b.exposed_memcpy_ns, b.busy_ns);
  EXPECT_LE(b.exposed_comm_ns, b.total_comm_ns);
  EXPECT_LE(b.exposed_memcpy_ns, b.total_memcpy_ns);
  EXPECT_EQ(b.idle_in_steps_causes.total_ns() + b.batch_gap_causes.total_ns(), b.idle_ns);
}

class SyntheticInvariants : public ::testing::TestWithParam<synthetic::InputMemory> {};

TEST_P(SyntheticInvariants, Hold) {
  gpuprof::testing::TemporaryFolder folder;
  synthetic::SynthOptions synth;
  synth.devices = 3;
  synth.steps = 12;
  synth.kernels_per_step = 30;
  synth.input_memory = GetParam();
  const auto path = folder.file("synthetic.sqlite");
  synthetic::write_synthetic_trace(path, synth);
  const auto model = trace::load_trace_model(path);

  const auto rank = analyze_rank(model, AnalysisOptions{});
  EXPECT_TRUE(rank.notices.empty());
  ASSERT_EQ(rank.devices.size(), 3U);
  for (const auto& device : rank.devices) {
    EXPECT_EQ(device.source, WindowSource::steps);
    EXPECT_EQ(device.steps, 12);
    EXPECT_EQ(device.steady_steps, 11);
    expect_consistent(device.total);
    expect_consistent(device.steady);
    Breakdown sum;
    for (const auto& step : rank.steps) {
      if (step.step.device == device.device) {
        expect_consistent(step.breakdown);
        sum += step.breakdown;
      }
    }
    EXPECT_EQ(sum, device.total);
    EXPECT_GT(device.total.total_comm_ns, 0);
  }
  // Every step after the first follows a host-side batch load, so every gap is there and has a cause.
  EXPECT_EQ(rank.gaps.size(), 3U * 11U);
  for (const auto& gap : rank.gaps) EXPECT_GT(gap.end_ns, gap.start_ns);

  AnalysisOptions span;
  span.window = WindowMode::span;
  const auto spanned = analyze_rank(model, span);
  for (std::size_t i = 0; i < spanned.devices.size(); ++i) {
    expect_consistent(spanned.devices[i].total);
    // Steps cover only part of the span (gaps lie outside them), so busy inside steps cannot exceed busy overall.
    EXPECT_LE(rank.devices[i].total.busy_ns, spanned.devices[i].total.busy_ns);
    EXPECT_GE(spanned.devices[i].total.window_ns, rank.devices[i].total.window_ns);
  }
  std::int64_t transfer_time = 0;
  for (const auto& kind : rank.transfers.kinds) {
    transfer_time += kind.totals.total_ns;
    EXPECT_LE(kind.totals.exposed_ns, kind.totals.total_ns);
  }
  std::int64_t pairs_time = 0;
  for (const auto& pair : rank.transfers.pairs) pairs_time += pair.totals.total_ns;
  EXPECT_EQ(pairs_time, transfer_time);
  double percent = 0;
  for (const auto& row : rank.kernels.kernels) percent += row.percent;
  EXPECT_NEAR(percent, 100.0, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(InputMemory, SyntheticInvariants,
                         ::testing::Values(synthetic::InputMemory::pinned, synthetic::InputMemory::pageable,
                                           synthetic::InputMemory::mixed));

}  // namespace
}  // namespace gpuprof::analysis
