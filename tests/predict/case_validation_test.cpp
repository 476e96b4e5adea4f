#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "gpuprof/predict/case_validation.hpp"
#include "gpuprof/units/statistics.hpp"
#include "temporary_folder.hpp"

// The classic cases and the published 1-vs-8-GPU tables (../shared/data/scaling; skips without it),
// predicted from synthetic 1-GPU traces through the replay. Bounds from issue 29 where they hold; where
// they do not (published within 10 %, the band), the floor is what the model reaches today, so a
// regression fails (docs/predict.md says by how much the bound is missed and why).

namespace gpuprof::predict {
namespace {

class CaseValidation : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(dir_ + "/classic-cases.csv")) GTEST_SKIP() << "no ../shared/data/scaling";
  }
  std::string dir_ = GPUPROF_SCALING_DATA_DIR;
  gpuprof::testing::TemporaryFolder work_;
};

TEST_F(CaseValidation, GruHostStagedVerdictsAndBreakEven) {
  const auto gru = run_gru_case(dir_, work_.path().string());
  ASSERT_EQ(gru.rows.size(), 5u);
  for (const auto& row : gru.rows) EXPECT_TRUE(row.verdict_right) << row.name;
  EXPECT_NEAR(gru.rows.front().error(), 0.0, 0.01);  // the fitted batch
  ASSERT_GT(gru.predicted_break_even, 0.0);
  EXPECT_LE(std::abs(std::log2(gru.predicted_break_even / 256.0)), 1.0);  // within one grid step of 256
  for (const auto& row : gru.rows) EXPECT_LE(std::abs(row.error()), 0.10) << row.name;
}

TEST_F(CaseValidation, TwoTowersPlacementIsSlowerWithPeerCopiesOnTop) {
  const auto towers = run_towers_case(dir_, work_.path().string());
  EXPECT_TRUE(towers.verdict_right);
  EXPECT_NE(towers.note.find("peer copies"), std::string::npos) << towers.note;
}

TEST_F(CaseValidation, PublishedEightGpuThroughput) {
  const auto cases = run_published_cases(dir_, work_.path().string());
  ASSERT_GE(cases.size(), 50u);
  std::vector<double> errors;
  for (const auto& c : cases) errors.push_back(std::abs(c.error()));
  const auto within = std::count_if(errors.begin(), errors.end(), [](double e) { return e <= 0.10; });
  EXPECT_LE(units::median(errors), 0.05);
  // Issue 29 asks every case within 10 %; 46 of 61 are (see docs/predict.md for the rest).
  EXPECT_GE(static_cast<double>(within) / static_cast<double>(cases.size()), 0.75);
}

// Issue 29 asks the truth inside the band in >= 80 % of the cases. Its slow end carries one figure from
// published runs, the replica loss (band_high.hpp); here on the runs it was calibrated on, so the two tests
// below check it on runs it did not see.
TEST_F(CaseValidation, BandHoldsTheTruth) {
  const auto gru = run_gru_case(dir_, work_.path().string());
  for (const auto& row : gru.rows) EXPECT_TRUE(row.in_band()) << row.name << " " << row.low << "-" << row.high;
  const auto towers = run_towers_case(dir_, work_.path().string());
  EXPECT_TRUE(towers.in_band());
  const auto published = run_published_cases(dir_, work_.path().string());
  for (const auto& c : published) EXPECT_LE(c.low, c.high) << c.name;
  auto inside = std::count_if(published.begin(), published.end(), [](const auto& c) { return c.in_band(); });
  for (const auto& row : gru.rows) inside += row.in_band() ? 1 : 0;
  inside += towers.in_band() ? 1 : 0;
  EXPECT_GE(static_cast<double>(inside) / static_cast<double>(published.size() + gru.rows.size() + 1), 0.80);
  // The band in step time says the same as the band in the case's unit.
  for (const auto& c : published) EXPECT_EQ(c.in_band_with(kPublishedReplicaLoss), c.in_band()) << c.name;
}

TEST_F(CaseValidation, ShippedReplicaLossIsTheCalibrationOfThePublishedRuns) {
  const auto published = run_published_cases(dir_, work_.path().string());
  EXPECT_NEAR(calibrate_on(published, 0.8), kPublishedReplicaLoss, 5e-4);
}

// Held out of the calibration: each 8-GPU run against the others' calibration, and the 2- and 4-GPU runs
// of the same tables (which check the √(2 ln N) shape). docs/predict.md gives the figures; the floors sit
// a little below them, so that a regression fails. The split by system is reported, not asserted: a loss
// calibrated on DGX A100 alone holds only 57 % of the DGX-1 runs.
TEST_F(CaseValidation, ReplicaLossHoldsOnRunsOutsideItsCalibration) {
  const auto published = run_published_cases(dir_, work_.path().string());
  EXPECT_GE(leave_one_out(published, 0.8).share(), 0.75);
  std::size_t inside = 0, runs = 0;
  for (const std::int32_t gpus : {2, 4}) {
    const auto cases = run_published_cases(dir_, work_.path().string(), gpus);
    EXPECT_GE(cases.size(), 10u) << gpus;
    const auto held = coverage_with(cases, kPublishedReplicaLoss);
    inside += held.inside, runs += held.cases;
  }
  EXPECT_GE(static_cast<double>(inside) / static_cast<double>(runs), 0.80);
}

}  // namespace
}  // namespace gpuprof::predict
