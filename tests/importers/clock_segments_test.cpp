#include <gtest/gtest.h>

#include "clock_segments.hpp"

// The piecewise host-to-GPU offset of nvprof traces whose host clock jumps (issue 28).

namespace gpuprof::importers {
namespace {

// Launches 5 us before their work, a synchronize returning 10 us after the work it waited for, every 1 ms of
// GPU time; from `jump_at` on, the host clock reads `jump_ns` later.
std::vector<ClockBound> run(std::int64_t jump_at, std::int64_t jump_ns) {
  std::vector<ClockBound> bounds;
  for (std::int64_t gpu = 1'000'000; gpu <= 10'000'000; gpu += 1'000'000) {
    const auto host_shift = gpu >= jump_at ? jump_ns : 0;
    const auto launch = gpu - 5'000 + host_shift, sync_end = gpu + 200'000 + 10'000 + host_shift;
    bounds.push_back({launch, gpu, launch - gpu, false});
    bounds.push_back({sync_end, gpu + 200'000, sync_end - (gpu + 200'000), true});
  }
  return bounds;
}

TEST(ClockSegments, OneOffsetFitsAClockWithoutJump) {
  const auto fit = fit_clock_segments(run(100'000'000, 0));
  ASSERT_EQ(fit.segments.size(), 1U);
  EXPECT_EQ(fit.segments[0].offset_ns, 0);  // launches precede their work already: nothing moves
  EXPECT_EQ(fit.violations_constant, 0);
  EXPECT_EQ(fit.violations_piecewise, 0);
}

TEST(ClockSegments, AHostClockJumpSplitsTheFit) {
  const auto fit = fit_clock_segments(run(6'000'000, 1'800'000));
  ASSERT_EQ(fit.segments.size(), 2U);
  EXPECT_EQ(fit.segments[0].offset_ns, 0);
  EXPECT_EQ(fit.segments[1].gpu_start_ns, 6'000'000);
  // After the jump GPU times move forward by at least 1.795 ms (launch bound) and at most 1.81 ms (syncs).
  EXPECT_GE(fit.segments[1].offset_ns, 1'795'000);
  EXPECT_LE(fit.segments[1].offset_ns, 1'810'000);
  // One constant shift of 1.795 ms makes the synchronizes before the jump return before their work.
  EXPECT_EQ(fit.violations_constant, 5);
  EXPECT_EQ(fit.violations_piecewise, 0);
  EXPECT_EQ(offset_at(fit.segments, 7'000'000), fit.segments[1].offset_ns);
  EXPECT_EQ(offset_at(fit.segments, 2'000'000), 0);
}

}  // namespace
}  // namespace gpuprof::importers
