#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "gpuprof/predict/baselines.hpp"
#include "gpuprof/predict/case_validation.hpp"
#include "gpuprof/predict/step_variability.hpp"
#include "gpuprof/units/statistics.hpp"
#include "temporary_folder.hpp"

// The classic cases and the published 1-vs-N-GPU tables (../shared/data/scaling; skips without it),
// predicted from synthetic 1-GPU traces through the replay, with the 1-GPU variability stated from the real
// traces of ../shared/data/external and samples/. Every figure fitted to published runs is calibrated on
// other sources than the rows it is checked on (issue 37).

namespace gpuprof::predict {
namespace {

class CaseValidation : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(dir_ + "/classic-cases.csv")) GTEST_SKIP() << "no ../shared/data/scaling";
  }
  // The published rows on `gpus` GPUs with the stated 1-GPU variability and the centre loss calibrated
  // leave one source out on the 8-GPU rows (as the benchmark and docs/predict.md have them).
  std::vector<CaseResult> published(std::int32_t gpus) {
    const auto raw8 = run_published_cases(dir_, work_.path().string(), {8, stated_spread()});
    return centre_left_out(raw8, gpus == 8 ? raw8 : run_published_cases(dir_, work_.path().string(),
                                                                          {gpus, stated_spread()}));
  }
  static double stated_spread() {
    static const double spread =
        measure_step_variability(variability_sources(gpuprof::testing::external_data_dir().string(),
                                                     GPUPROF_SAMPLES_DIR))
            .median_share;
    return spread;
  }
  std::string dir_ = GPUPROF_SCALING_DATA_DIR;
  gpuprof::testing::TemporaryFolder work_;
};

TEST_F(CaseValidation, GruHostStagedVerdictsAndBreakEven) {
  const auto gru = run_gru_case(dir_, work_.path().string());
  ASSERT_EQ(gru.rows.size(), 5u);
  // The verdict is the band's: batches 64 and 128 no faster, 1024 faster; at 256 (0.98x measured) and 512 (1.24x)
  // the band straddles the 1-GPU time (PCIe machines' replica loss at the slow end, the copies at once at the
  // fast end): uncertain, never wrong.
  for (const auto& row : gru.rows) EXPECT_TRUE(row.verdict_right || row.uncertain) << row.name;
  EXPECT_EQ(std::count_if(gru.rows.begin(), gru.rows.end(), [](const auto& r) { return r.verdict_right; }), 3);
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

// The stated variability comes from real 1-GPU traces (step_variability.hpp), not from synth's jitter.
TEST_F(CaseValidation, StatedVariabilityIsMeasuredOnRealSingleGpuTraces) {
  if (gpuprof::testing::external_data_dir().empty()) GTEST_SKIP() << "no ../shared/data/external";
  const auto stated = measure_step_variability(
      variability_sources(gpuprof::testing::external_data_dir().string(), GPUPROF_SAMPLES_DIR));
  EXPECT_GE(stated.traces.size(), 3u);  // the two Kineto ResNet-50 traces and the samples at least
  for (const auto& t : stated.traces) EXPECT_GE(t.periods, 3) << t.trace;
  EXPECT_GT(stated.median_share, 0.0);
  EXPECT_LT(stated.median_share, 0.20);
  EXPECT_DOUBLE_EQ(stated.median_share, stated_spread());
}

// `predict` ships the stated figure (a trace too short to measure its own variability judges its lean against
// it, verdict_lean.hpp): it is the median the real traces give, to the two decimals of a percent it is stated in.
TEST_F(CaseValidation, ShippedStepVariabilityIsTheMedianOfTheRealTraces) {
  if (gpuprof::testing::external_data_dir().empty()) GTEST_SKIP() << "no ../shared/data/external";
  EXPECT_NEAR(stated_spread(), kStatedStepVariability, 5e-5);
}

// Issue 37: one configuration gave 8-GPU efficiency 0.952-0.980 depending only on `synth --seed`. With the
// stated variability the seed moves the predicted efficiency by less than 0.005 (the replay of a synthetic
// step of another seed differs only by the kernels' own jitter).
TEST_F(CaseValidation, PublishedRowsDoNotDependOnTheSeed) {
  const auto raw = run_published_cases(dir_, work_.path().string(), {8, stated_spread(), 100});
  const auto other = run_published_cases(dir_, work_.path().string(), {8, stated_spread(), 1000});
  ASSERT_EQ(raw.size(), other.size());
  const auto a = centre_left_out(raw, raw);
  const auto b = centre_left_out(raw, other);
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].name, b[i].name);
    EXPECT_NEAR(a[i].predicted / (8 * a[i].one_gpu), b[i].predicted / (8 * b[i].one_gpu), 0.005) << a[i].name;
  }
}

TEST_F(CaseValidation, PublishedEightGpuThroughput) {
  const auto cases = published(8);
  ASSERT_GE(cases.size(), 50u);
  std::vector<double> errors;
  for (const auto& c : cases) errors.push_back(std::abs(c.error()));
  const auto within = std::count_if(errors.begin(), errors.end(), [](double e) { return e <= 0.10; });
  std::nth_element(errors.begin(), errors.begin() + static_cast<std::ptrdiff_t>(errors.size() / 2), errors.end());
  EXPECT_LE(errors[errors.size() / 2], 0.05);
  // Issue 37 asks 85 % within 10 %; 53 of 61 are, leave one source out (docs/predict.md).
  EXPECT_GE(static_cast<double>(within) / static_cast<double>(cases.size()), 0.85);
}

// Issue 37, "Done when": predict beats both no-skill baselines, overall and on the runs with efficiency
// below 0.85, on rows its centre loss was not calibrated on (leave one source out; the 4- and 2-GPU rows
// are also another GPU count than the calibration's). Beating means more rows within 10 % and a smaller
// median |error| than the better of linear and the constant efficiency (itself fitted on the other sources).
TEST_F(CaseValidation, PredictBeatsBothBaselinesLeaveOneSourceOut) {
  for (const std::int32_t gpus : {8, 4, 2}) {
    const auto c = compare_with_baselines(published(gpus));
    for (const auto& [what, part] : {std::pair{"all rows", c.all}, {"efficiency < 0.85", c.low_efficiency}}) {
      ASSERT_GT(part.predict.rows, 0u) << gpus << " GPUs, " << what;
      EXPECT_GT(part.predict.within_10, std::max(part.linear.within_10, part.constant.within_10))
          << gpus << " GPUs, " << what;
      EXPECT_LT(part.predict.median_error, std::min(part.linear.median_error, part.constant.median_error))
          << gpus << " GPUs, " << what;
      EXPECT_EQ(part.predict.verdict_right, part.predict.rows) << gpus << " GPUs, " << what;
    }
  }
}

// Issue 37, "Done when": the band holds the truth in at least 80 % of rows, leave one source out: each
// README's rows checked with the band's replica loss (and the centre loss) calibrated on the other READMEs'
// 8-GPU rows; the 2- and 4-GPU rows are held out of both calibrations.
TEST_F(CaseValidation, BandHoldsTheTruthLeaveOneSourceOut) {
  const auto eight = published(8);
  EXPECT_GE(band_left_out(eight, eight, 0.8).share(), 0.80);
  HeldOutCoverage others;
  for (const std::int32_t gpus : {4, 2}) {
    const auto part = band_left_out(eight, published(gpus), 0.8);
    others.inside += part.inside, others.cases += part.cases;
  }
  EXPECT_GE(others.share(), 0.80);
  for (const auto& c : eight) EXPECT_LE(c.low, c.high) << c.name;
}

TEST_F(CaseValidation, ClassicCasesInsideTheirBand) {
  const auto gru = run_gru_case(dir_, work_.path().string());
  for (const auto& row : gru.rows) EXPECT_TRUE(row.in_band()) << row.name << " " << row.low << "-" << row.high;
  EXPECT_TRUE(run_towers_case(dir_, work_.path().string()).in_band());
}

// The shipped figures are the calibrations of all 61 published 8-GPU rows (the validation above calibrates
// them leave one source out instead).
TEST_F(CaseValidation, ShippedCentreAndReplicaLossAreTheCalibrationOfThePublishedRuns) {
  const auto raw = run_published_cases(dir_, work_.path().string(), {8, stated_spread()});
  const auto centre = calibrate_centre_on(raw);
  EXPECT_NEAR(centre.exposed_share, kPublishedCentreLoss.exposed_share, 1e-9);
  EXPECT_NEAR(centre.replica_loss, kPublishedCentreLoss.replica_loss, 1e-9);
  EXPECT_NEAR(calibrate_by_source(with_centre_loss(raw, kPublishedCentreLoss), 0.8), kPublishedReplicaLoss, 5e-4);
}

}  // namespace
}  // namespace gpuprof::predict
