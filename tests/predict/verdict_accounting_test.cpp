#include "gpuprof/predict/verdict_accounting.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

// The verdict counted as a user acts on it (issue 37): the band's call, the centre's lean where the call is
// uncertain, the centre's side and the two baselines' sides, on a small set whose every count is worked out by
// hand below.

namespace gpuprof::predict {
namespace {

constexpr double kOneGpu = 100;       // images/s on one GPU
constexpr double kVariability = 0.0305;  // the stated 1-GPU variability

CaseResult run(const std::string& source, double predicted, double low, double high, double measured) {
  CaseResult row{"fixture", source + " run", predicted, measured, low, high, "images/s"};
  row.source = source, row.one_gpu = kOneGpu, row.gpus = 2;
  set_verdict(row, kOneGpu);
  return row;
}

// Measured efficiencies 0.85, 0.45 (A), 0.45, 0.475 (B), 0.55, 0.49 (C). The constant efficiency of a row is the
// median of the other sources' rows: A 0.4825 (96.5 images/s, "no faster"), B 0.52 (104, "faster"), C 0.4625
// (92.5, "no faster"); linear is always 200, "faster".
std::vector<CaseResult> fixture() {
  return {
      run("A", 180, 150, 195, 170),  // the band says faster: right
      run("A", 80, 60, 95, 90),      // the band says no faster: right
      run("B", 85, 60, 120, 90),     // uncertain, leans no faster (0.85x): right
      run("B", 120, 80, 150, 95),    // uncertain, leans faster (1.2x): wrong
      run("C", 101, 70, 130, 110),   // uncertain, 1.01x: within 3.05 % of one GPU, too close to call
      run("C", 190, 160, 198, 98),   // the band says faster, measured no faster: wrong (a second run state)
  };
}

TEST(VerdictAccounting, CountsTheCallTheLeanTheCentreAndTheBaselinesOnEveryRow) {
  const auto a = account_verdicts(fixture(), kVariability).all;
  EXPECT_EQ(a.rows, 6u);
  EXPECT_EQ(a.band_right, 2u);
  EXPECT_EQ(a.band_uncertain, 3u);
  EXPECT_EQ(a.band_wrong, 1u);
  EXPECT_EQ(a.lean_of_uncertain.right, 1u);
  EXPECT_EQ(a.lean_of_uncertain.wrong, 1u);
  EXPECT_EQ(a.lean_of_uncertain.too_close, 1u);
  EXPECT_EQ(a.acted_right(), 3u);
  EXPECT_EQ(a.acted_wrong(), 2u);
  EXPECT_EQ(a.centre.right, 4u);  // the too-close run's centre (101) is on the measured side
  EXPECT_EQ(a.centre.wrong, 2u);
  EXPECT_EQ(a.centre.too_close, 0u);  // the centre's own side is always a side
  EXPECT_EQ(a.linear.right, 2u);
  EXPECT_EQ(a.linear.wrong, 4u);
  EXPECT_EQ(a.constant.right, 2u);
  EXPECT_EQ(a.constant.wrong, 4u);
}

TEST(VerdictAccounting, RunsNoFasterThanOneAreCountedApart) {
  const auto a = account_verdicts(fixture(), kVariability).no_faster;
  EXPECT_EQ(a.rows, 4u);
  EXPECT_EQ(a.band_right, 1u);
  EXPECT_EQ(a.band_uncertain, 2u);
  EXPECT_EQ(a.band_wrong, 1u);
  EXPECT_EQ(a.lean_of_uncertain.right, 1u);
  EXPECT_EQ(a.lean_of_uncertain.wrong, 1u);
  EXPECT_EQ(a.lean_of_uncertain.too_close, 0u);
  EXPECT_EQ(a.centre.right, 2u);
  EXPECT_EQ(a.centre.wrong, 2u);
  EXPECT_EQ(a.linear.right, 0u);  // N x always says faster
  EXPECT_EQ(a.constant.right, 2u);
  EXPECT_EQ(a.constant.wrong, 2u);
}

// With no variability stated the 1.01x run takes its centre's side; rows without a 1-GPU figure are left out.
TEST(VerdictAccounting, TheTooCloseRuleFollowsTheVariabilityAndRowsWithoutOneGpuAreLeftOut) {
  auto rows = fixture();
  rows.push_back(run("D", 150, 140, 160, 155));
  rows.back().one_gpu = 0;
  const auto a = account_verdicts(rows, 0.0).all;
  EXPECT_EQ(a.rows, 6u);
  EXPECT_EQ(a.lean_of_uncertain.right, 2u);
  EXPECT_EQ(a.lean_of_uncertain.too_close, 0u);
}

// Sets added together keep each row as its own set scored it.
TEST(VerdictAccounting, SetsAddUp) {
  auto total = account_verdicts(fixture(), kVariability);
  total += account_verdicts(fixture(), kVariability);
  EXPECT_EQ(total.all.rows, 12u);
  EXPECT_EQ(total.all.band_uncertain, 6u);
  EXPECT_EQ(total.all.lean_of_uncertain.too_close, 2u);
  EXPECT_EQ(total.no_faster.constant.right, 4u);
  EXPECT_EQ(total.all.acted_wrong(), 4u);
}

}  // namespace
}  // namespace gpuprof::predict
