#include "gpuprof/predict/baselines.hpp"

#include <gtest/gtest.h>

namespace {

using gpuprof::predict::CaseResult;

CaseResult row(const std::string& source, double one_gpu, double measured, double predicted) {
  CaseResult r;
  r.source = source, r.one_gpu = one_gpu, r.gpus = 8, r.measured = measured, r.predicted = predicted;
  return r;
}

// The constant efficiency of a row comes from the other sources only: a source's own rows never fit it.
TEST(Baselines, ConstantEfficiencyLeavesTheRowsSourceOut) {
  const std::vector<CaseResult> rows = {row("a", 100, 720, 700), row("a", 100, 760, 700), row("b", 100, 400, 700)};
  EXPECT_DOUBLE_EQ(gpuprof::predict::fitted_efficiency(rows, "a"), 0.5);    // b's 400 / 800
  EXPECT_DOUBLE_EQ(gpuprof::predict::fitted_efficiency(rows, "b"), 0.925);  // median of 0.9 and 0.95
  const auto c = gpuprof::predict::compare_with_baselines(rows);
  EXPECT_EQ(c.all.linear.within_10, 1u);  // 800 against 720 (+11 %), 760 (+5 %) and 400
  EXPECT_EQ(c.all.constant.within_10, 0u);  // 400 against 720 and 760; 740 against 400
  EXPECT_EQ(c.all.predict.within_10, 2u);
  EXPECT_EQ(c.low_efficiency.predict.rows, 1u);  // b: 400 / 800
  EXPECT_EQ(c.no_faster.predict.rows, 0u);
}

// A run where 8 GPUs were slower than one: the verdict of every method is scored on it.
TEST(Baselines, VerdictOnRunsNoFasterThanOneGpu) {
  const std::vector<CaseResult> rows = {row("a", 100, 90, 95), row("b", 100, 700, 650)};
  const auto c = gpuprof::predict::compare_with_baselines(rows);
  ASSERT_EQ(c.no_faster.predict.rows, 1u);
  EXPECT_EQ(c.no_faster.predict.verdict_right, 1u);
  EXPECT_EQ(c.no_faster.linear.verdict_right, 0u);    // 800 > 100: "faster", wrong
  EXPECT_EQ(c.no_faster.constant.verdict_right, 0u);  // 8 x 100 x 0.875 = 700: "faster", wrong
}

}  // namespace
