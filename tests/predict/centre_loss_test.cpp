#include "gpuprof/predict/centre_loss.hpp"

#include <gtest/gtest.h>

namespace gpuprof::predict {
namespace {

// A replica's step of 100 ns with 20 ns of all-reduce hidden behind backward, a measured synchronization
// term of 2 ns and √(2 ln N)·step = 200 ns.
constexpr CentreParts kParts{100.0, 20.0, 2.0, 200.0};

TEST(CentreLoss, AddsTheExposedShareAndTheLargerOfTheTwoSpreads) {
  EXPECT_DOUBLE_EQ(kParts.at({0.0, 0.0}), 102.0);    // the model and the measured spread
  EXPECT_DOUBLE_EQ(kParts.at({0.5, 0.0}), 112.0);    // half the hidden all-reduce exposed
  EXPECT_DOUBLE_EQ(kParts.at({0.0, 0.005}), 102.0);  // 1 ns of replica loss: the measured 2 ns stay
  EXPECT_DOUBLE_EQ(kParts.at({1.0, 0.05}), 130.0);   // all 20 ns exposed, 10 ns replaces the measured 2 ns
}

// Runs made with a known loss give it back; a loss outside the grid is never returned.
TEST(CentreLoss, CalibrationRecoversTheLossOfTheRuns) {
  const CentreLoss truth{0.6, 0.025};
  std::vector<CentreRun> runs;
  for (const double hidden : {0.0, 10.0, 30.0, 60.0})
    for (const double step : {80.0, 100.0, 150.0}) {
      const CentreParts parts{step, hidden, 1.0, 2.0 * step};
      runs.push_back({parts, parts.at(truth)});
    }
  const auto fitted = calibrate_centre_loss(runs);
  EXPECT_NEAR(fitted.exposed_share, truth.exposed_share, 1e-9);
  EXPECT_NEAR(fitted.replica_loss, truth.replica_loss, 1e-9);
  // Runs the model already predicts: nothing to add.
  std::vector<CentreRun> exact;
  for (const auto& run : runs) exact.push_back({run.parts, run.parts.at({})});
  const auto none = calibrate_centre_loss(exact);
  EXPECT_DOUBLE_EQ(none.exposed_share, 0.0);
  EXPECT_DOUBLE_EQ(none.replica_loss, 0.0);
}

}  // namespace
}  // namespace gpuprof::predict
