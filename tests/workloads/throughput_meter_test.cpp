#include "throughput_meter.hpp"

#include <stdexcept>

#include <gtest/gtest.h>

namespace gpuprof::workloads {
namespace {

// A run of `epochs` epochs of `per_epoch` steps each lasting `step_seconds`, the first step
// (step 0, the slow one) lasting `first_step_seconds`; returns the meter after the run.
ThroughputMeter run(int warmup, int epochs, int per_epoch, double first_step_seconds, double step_seconds) {
  ThroughputMeter meter(warmup, 64);
  double now = 0.0;
  int step = 0;
  for (int epoch = 0; epoch < epochs; ++epoch) {
    meter.start_epoch(now);
    for (int i = 0; i < per_epoch; ++i, ++step) {
      now += step == 0 ? first_step_seconds : step_seconds;
      if (meter.ends_warmup(step)) meter.warmup_done(now);
    }
    meter.end_epoch(per_epoch, now);
    now += 5.0;  // validation between epochs is never timed
  }
  return meter;
}

TEST(ThroughputMeter, StepZeroAndTheWarmupAreNotTimed) {
  // 20 steps, step 0 takes 0.232 s, the rest 0.01 s: warm-up 10 leaves 10 steps of 0.01 s.
  const ThroughputMeter meter = run(10, 1, 20, 0.232, 0.01);
  EXPECT_EQ(meter.timed_steps(), 10);
  EXPECT_NEAR(meter.timed_seconds(), 0.1, 1e-9);
  EXPECT_NEAR(meter.samples_per_second(), 10 * 64 / 0.1, 1e-6);
}

TEST(ThroughputMeter, WithoutWarmupEveryStepCounts) {
  const ThroughputMeter meter = run(0, 1, 20, 0.232, 0.01);
  EXPECT_EQ(meter.timed_steps(), 20);
  EXPECT_NEAR(meter.timed_seconds(), 0.232 + 19 * 0.01, 1e-9);
}

TEST(ThroughputMeter, WarmupSpanningEpochsAndValidationLeftOut) {
  // 3 epochs of 4 steps, warm-up 6: epoch 1 all warm-up, epoch 2 half, epoch 3 whole.
  const ThroughputMeter meter = run(6, 3, 4, 1.0, 0.5);
  EXPECT_EQ(meter.timed_steps(), 6);
  EXPECT_NEAR(meter.timed_seconds(), 6 * 0.5, 1e-9);  // the 5 s of validation are not in it
}

TEST(ThroughputMeter, EachEpochSaysWhatItTimed) {
  ThroughputMeter meter(3, 8);
  meter.start_epoch(0.0);
  EXPECT_FALSE(meter.ends_warmup(0));
  EXPECT_TRUE(meter.ends_warmup(2));
  meter.warmup_done(3.0);
  const TimedSpan first = meter.end_epoch(5, 5.0);
  EXPECT_EQ(first.steps, 2);
  EXPECT_DOUBLE_EQ(first.seconds, 2.0);
  EXPECT_DOUBLE_EQ(ThroughputMeter::samples_per_second(first, 8), 8.0);
  meter.start_epoch(6.0);
  const TimedSpan second = meter.end_epoch(5, 8.5);
  EXPECT_EQ(second.steps, 5);
  EXPECT_DOUBLE_EQ(second.seconds, 2.5);
}

TEST(ThroughputMeter, AllWarmupGivesNoFigureRatherThanADivisionByZero) {
  const ThroughputMeter meter = run(5, 1, 5, 1.0, 1.0);
  EXPECT_EQ(meter.timed_steps(), 0);
  EXPECT_EQ(meter.samples_per_second(), 0.0);
  EXPECT_EQ(ThroughputMeter::samples_per_second(TimedSpan{3, 0.0}, 64), 0.0);
}

TEST(ThroughputMeter, TimedStepsWithoutTheWarmupsEndAreACallerError) {
  ThroughputMeter meter(2, 8);
  meter.start_epoch(0.0);
  EXPECT_THROW(meter.end_epoch(4, 1.0), std::logic_error);
}

}  // namespace
}  // namespace gpuprof::workloads
