#include "gpuprof/predict/band_high.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "gpuprof/predict/sample_statistics.hpp"

namespace gpuprof::predict {
namespace {

// A replica's step of 100 ns replayed at 110 ns at the band's slow end, a measured synchronization term
// of 2 ns and √(2 ln N)·step = 200 ns.
constexpr BandHigh kBand{100.0, 110.0, 2.0, 200.0};

TEST(BandHigh, TakesTheLargerOfTheMeasuredAndThePublishedSpreadNeverBoth) {
  EXPECT_DOUBLE_EQ(kBand.at(0.0), 112.0);   // the measured term alone
  EXPECT_DOUBLE_EQ(kBand.at(0.005), 112.0);  // 1 ns of published loss: the measured 2 ns stay
  EXPECT_DOUBLE_EQ(kBand.at(0.05), 120.0);   // 10 ns replaces the measured 2 ns
}

TEST(BandHigh, NeverFasterThanThePredictionItself) {
  const BandHigh band{150.0, 110.0, 2.0, 200.0};
  EXPECT_DOUBLE_EQ(band.at(0.0), 150.0);
  EXPECT_DOUBLE_EQ(band.at(0.25), 160.0);
}

TEST(BandHigh, SpreadToReachInvertsTheSlowEnd) {
  EXPECT_DOUBLE_EQ(kBand.spread_to_reach(111.0), 0.0);  // already inside
  EXPECT_DOUBLE_EQ(kBand.spread_to_reach(130.0), 0.1);
  EXPECT_DOUBLE_EQ(kBand.at(kBand.spread_to_reach(130.0)), 130.0);
  const BandHigh without_replicas{100.0, 110.0, 0.0, 0.0};
  EXPECT_TRUE(std::isinf(without_replicas.spread_to_reach(130.0)));
}

TEST(CalibrateReplicaLoss, SplitConformalRank) {
  // n = 9 at 80 %: the ⌈10 × 0.8⌉ = 8th smallest.
  EXPECT_DOUBLE_EQ(calibrate_replica_loss({0.9, 0.1, 0.8, 0.2, 0.7, 0.3, 0.6, 0.4, 0.5}, 0.8), 0.8);
  // n = 3 at 80 %: ⌈3.2⌉ = 4 > n, so the largest.
  EXPECT_DOUBLE_EQ(calibrate_replica_loss({0.3, 0.1, 0.2}, 0.8), 0.3);
  EXPECT_DOUBLE_EQ(calibrate_replica_loss({}, 0.8), 0.0);
}

// The steady steps of samples/gru.sqlite (ms): one step an epoch boundary lengthens to 20.8 ms made the
// plain standard deviation 2.5 ms and the 2-GPU synchronization term half a step.
TEST(SampleStatistics, RobustSpreadLeavesOutTheOneLongStep) {
  const std::vector<double> steady{6.03, 5.99, 5.72, 5.74, 5.78, 5.30, 5.74, 5.60, 5.83, 20.82, 5.56, 5.51};
  const std::vector<double> without{6.03, 5.99, 5.72, 5.74, 5.78, 5.30, 5.74, 5.60, 5.83, 5.56, 5.51};
  double mean = 0, square = 0;
  for (const double v : without) mean += v;
  mean /= static_cast<double>(without.size());
  for (const double v : without) square += (v - mean) * (v - mean);
  EXPECT_DOUBLE_EQ(robust_spread(steady), std::sqrt(square / static_cast<double>(without.size() - 1)));
  EXPECT_LT(robust_spread(steady), 0.25);
  // Samples without outliers keep their plain sample standard deviation.
  EXPECT_DOUBLE_EQ(robust_spread({1.0, 2.0, 3.0}), 1.0);
  EXPECT_DOUBLE_EQ(robust_spread({5.0}), 0.0);
  EXPECT_DOUBLE_EQ(robust_spread({5.0, 5.0, 5.0, 9.0}), 0.0);  // no spread in the bulk
}

}  // namespace
}  // namespace gpuprof::predict
