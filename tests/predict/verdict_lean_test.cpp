#include "gpuprof/predict/verdict_lean.hpp"

#include <gtest/gtest.h>

#include <limits>

// Beside a call the band leaves uncertain, the centre's side (issue 37), unless the centre is within the 1-GPU
// step's variability of one GPU: a difference the user's own timing would not tell from noise takes no side.

namespace gpuprof::predict {
namespace {

// The stated variability of the validation's rows (step_variability.hpp).
constexpr double kVariability = 0.0305;

TEST(VerdictLean, TheCentresSideWhereItIsFartherFromOneGpuThanTheVariability) {
  EXPECT_EQ(lean_of(32.96 / 39.07, kVariability), Lean::no_faster);  // kuza55's InceptionV3, 4 of 7gforce's GPUs
  EXPECT_EQ(lean_of(48.58 / 39.07, kVariability), Lean::faster);     // the same on 2 GPUs, PS on the CPU
  EXPECT_EQ(to_string(Lean::no_faster), "no faster");
  EXPECT_EQ(to_string(Lean::faster), "faster");
}

// avolkov1's ResNet50 on 2 GPUs, PS on the CPU: centre 58.02 images/s against 58.19 on one GPU.
TEST(VerdictLean, TooCloseToCallWithinTheVariabilityOfOneGpu) {
  EXPECT_EQ(lean_of(58.02 / 58.19, kVariability), Lean::too_close);
  EXPECT_EQ(to_string(Lean::too_close), "too close to call");
  // Without any variability only an exact 1x takes no side.
  EXPECT_EQ(lean_of(1.0, 0.0), Lean::too_close);
  EXPECT_EQ(lean_of(1.001, 0.0), Lean::faster);
  EXPECT_EQ(lean_of(0.999, 0.0), Lean::no_faster);
}

// The variability is a share of the step time, so the bound is on the time per sample (1 / speedup), which is
// not symmetric in the speedup: 0.97x takes 3.09 % more time per sample, 1.03x 2.91 % less.
TEST(VerdictLean, TheBoundIsOnTheTimePerSample) {
  EXPECT_EQ(lean_of(0.97, kVariability), Lean::no_faster);
  EXPECT_EQ(lean_of(1.03, kVariability), Lean::too_close);
  EXPECT_EQ(lean_of(1.0 / 0.969, kVariability), Lean::faster);
  EXPECT_EQ(lean_of(1.0 / 1.030, kVariability), Lean::too_close);
}

// A speedup that is no figure takes no side.
TEST(VerdictLean, ASpeedupThatIsNoFigureIsTooClose) {
  EXPECT_EQ(lean_of(std::numeric_limits<double>::quiet_NaN(), kVariability), Lean::too_close);
  EXPECT_EQ(lean_of(std::numeric_limits<double>::infinity(), kVariability), Lean::too_close);
  EXPECT_EQ(lean_of(0.0, kVariability), Lean::too_close);
  EXPECT_EQ(lean_of(-2.0, kVariability), Lean::too_close);
}

}  // namespace
}  // namespace gpuprof::predict
