#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "gpuprof/predict/baselines.hpp"
#include "gpuprof/predict/case_validation.hpp"
#include "gpuprof/predict/step_variability.hpp"
#include "gpuprof/predict/verdict_accounting.hpp"
#include "temporary_folder.hpp"

// The hard machines of issue 37 (../shared/data/scaling/rossum-keras-multi-gpu; skips without it): every run
// on Rossum's 7gforce and Azure's 2x M60 predicted from a synthetic 1-GPU trace of its measured 1-GPU step, with
// the machine's link preset (its own bandwidth tests: no figure of these runs is used) and topology, and the
// synchronisation its log names. The verdict "N GPUs faster than one" must be right on every run that was no
// faster; before the topology and sync model, 4 of the 5 CIFAR-10 runs at batch 32 were called faster.

namespace gpuprof::predict {
namespace {

class RossumCases : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(dir_ + "/rossum-keras-multi-gpu")) GTEST_SKIP() << "no rossum-keras-multi-gpu";
    cases_ = run_rossum_cases(dir_, work_.path().string());
    const auto keras = run_rossum_keras_cases(dir_, work_.path().string());
    cases_.insert(cases_.end(), keras.begin(), keras.end());
    const auto tf_cnn = run_rossum_tf_cnn_cases(dir_, work_.path().string());
    const auto mlp = run_rossum_mlp_cases(dir_, work_.path().string());
    cases_.insert(cases_.end(), mlp.begin(), mlp.end());
    cases_.insert(cases_.end(), tf_cnn.begin(), tf_cnn.end());
  }
  std::string dir_ = GPUPROF_SCALING_DATA_DIR;
  gpuprof::testing::TemporaryFolder work_;
  std::vector<CaseResult> cases_;
};

// The one run no faster than one that the model calls faster: GPUs 4 and 5 at 4096 per GPU without NCCL,
// measured 0.98x while the same GPUs with NCCL (the same bytes through GPU 0's link) give 1.82x and GPUs 0 and 1
// without NCCL 1.85x: nothing a link or topology model can see (docs/predict.md).
constexpr const char* kUnexplained = "Rossum 7gforce CIFAR-10 CNN, GPUs 4,5, b4096/GPU";

// The verdict is the band's (set_verdict): where the band straddles one GPU the trace cannot decide, and that is
// counted apart, never as right. Each run's band with the replica loss of the other sources (leave one source out).
TEST_F(RossumCases, VerdictRightOrUncertainOnEveryRunNoFasterThanOne) {
  const auto rows = band_rows_left_out(cases_, cases_, 0.8);
  std::size_t no_faster = 0, right = 0, uncertain = 0;
  for (const auto& c : rows) {
    if (c.measured > c.one_gpu) continue;
    ++no_faster, right += c.verdict_right, uncertain += c.uncertain;
    // Uncertain means the band holds one GPU's throughput between its ends.
    if (c.uncertain) EXPECT_TRUE(c.low <= c.one_gpu && c.one_gpu < c.high) << c.name;
    EXPECT_TRUE(c.verdict_right || c.uncertain || c.name == kUnexplained)
        << c.name << ": predicted " << c.predicted << " [" << c.low << ", " << c.high << "], measured " << c.measured
        << ", 1 GPU " << c.one_gpu;
  }
  // CIFAR-10 at batch 32 on 2-6 GPUs, with NCCL and without, on GPUs 0-N-1 and on 4,5 and 4,5,6 (14) and the
  // anomaly above; InceptionV3 and ResNet50 with the parameter server on a GPU at 4 and 6 GPUs (6); avolkov1's
  // ResNet50 with it on the CPU at 2 GPUs.
  EXPECT_EQ(no_faster, 22u);
  // Uncertain: avolkov1's ResNet50 on 2 GPUs with PS on the CPU (0.96x measured, 0.997x predicted) and kuza55's
  // InceptionV3 on 4 GPUs with PS on a GPU (its fast end, the copies beside the computation, reaches 1.04x).
  EXPECT_EQ(right, 19u);
  EXPECT_EQ(uncertain, 2u);
}

// Beside the 15 uncertain calls the centre's lean (verdict_lean.hpp), judged against the stated 1-GPU variability
// (the rows' 1-GPU traces are synthetic): never on the wrong side, 4 too close to call (ResNet50 on 2 GPUs, both
// parameter servers, both make_parallels: centres 0.98x to 1.03x). On the 22 runs no faster than one, the call
// and then the lean are right on 20, too close on 1 (avolkov1's ResNet50, PS on the CPU: centre 0.997x, measured
// 0.96x) and wrong on 1 (kUnexplained); both baselines call all 22 faster.
TEST_F(RossumCases, TheLeanBesideAnUncertainVerdictIsNeverOnTheWrongSide) {
  const auto account = account_verdicts(band_rows_left_out(cases_, cases_, 0.8), kStatedStepVariability);
  EXPECT_EQ(account.all.rows, 112u);
  EXPECT_EQ(account.all.band_uncertain, 15u);
  EXPECT_EQ(account.all.lean_of_uncertain.right, 11u);
  EXPECT_EQ(account.all.lean_of_uncertain.wrong, 0u);
  EXPECT_EQ(account.all.lean_of_uncertain.too_close, 4u);
  const auto& no_faster = account.no_faster;
  EXPECT_EQ(no_faster.rows, 22u);
  EXPECT_EQ(no_faster.acted_right(), 20u);
  EXPECT_EQ(no_faster.lean_of_uncertain.too_close, 1u);
  EXPECT_EQ(no_faster.acted_wrong(), 1u);
  EXPECT_EQ(no_faster.linear.right, 0u);
  EXPECT_EQ(no_faster.constant.right, 0u);
  EXPECT_EQ(no_faster.centre.right, 21u);
}

// What the band cannot know on these machines (the framework's sync, copies beside the computation, one host
// feeding N replicas) it covers: 80 % of the runs, each source's band from the other sources' runs. Before this
// round the band held 38 of the 112.
TEST_F(RossumCases, BandHoldsTheTruthLeaveOneSourceOut) {
  const auto coverage = band_left_out(cases_, cases_, 0.8);
  EXPECT_EQ(coverage.cases, 112u);
  EXPECT_GE(coverage.share(), 0.80) << coverage.inside << " of " << coverage.cases;
}

TEST_F(RossumCases, ShippedPcieReplicaLossIsTheCalibrationOfTheRossumRuns) {
  for (const auto& c : cases_) EXPECT_TRUE(c.over_pcie) << c.name;
  EXPECT_NEAR(calibrate_by_source(cases_, 0.8), kPcieReplicaLoss, 5e-4);
}

TEST_F(RossumCases, PredictBeatsBothBaselinesOnTheseRuns) {
  ASSERT_EQ(cases_.size(), 112u);  // CIFAR-10 42, Keras 28, tf_cnn_benchmarks 39, kuza55 MLP 3
  const auto c = compare_with_baselines(band_rows_left_out(cases_, cases_, 0.8));
  EXPECT_LT(c.all.predict.median_error, c.all.linear.median_error);
  EXPECT_LT(c.all.predict.median_error, c.all.constant.median_error);
  EXPECT_GT(c.all.predict.within_10, std::max(c.all.linear.within_10, c.all.constant.within_10));
  EXPECT_GT(c.all.predict.verdict_right, std::max(c.all.linear.verdict_right, c.all.constant.verdict_right));
  // One verdict is wrong (kUnexplained); 15 are uncertain (the band straddles 1x), among them avolkov1's ResNet50
  // on 2 GPUs with the parameter server on a GPU (measured 1.15x, centre 0.98x), which the centre called wrong.
  EXPECT_GE(c.all.predict.verdict_right, 96u);
}

std::size_t within_10(const std::vector<CaseResult>& rows) {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [](const CaseResult& c) { return std::abs(c.error()) <= 0.10; }));
}

// Why the centre carries no replica loss on PCIe machines (docs/predict.md, "The centre on Rossum's machines"):
// the published runs' replica loss calibrated on the other Rossum sources (each source held out) moves fewer of
// them within 10 % than none: the losses the runs show beyond the model differ by source and do not carry over.
TEST_F(RossumCases, CentreReplicaLossLeftOneSourceOutDoesNotCarryOver) {
  const auto before = within_10(cases_);
  const auto left_out = centre_left_out(cases_, cases_);
  ASSERT_EQ(left_out.size(), cases_.size());
  EXPECT_EQ(before, 58u);
  EXPECT_LT(within_10(left_out), before);
}

// The largest tf_cnn_benchmarks misses on az-2x-m60 (AlexNet on CIFAR-10 +53 to +62 %, ResNet20 +20 to +27 %) are
// not the exchange: the same log's `independent` runs, which exchange nothing, reach 1.22x and 1.74x, and every
// tf_cnn run more than 10 % off is predicted above that. No link, topology or overlap model can close them.
TEST_F(RossumCases, TfCnnMissesArePredictedAboveTheSameGpusExchangingNothing) {
  std::size_t with = 0, misses = 0;
  for (const auto& c : cases_) {
    if (c.no_exchange <= 0) continue;
    ++with;
    if (c.name.find("alexnet") != std::string::npos) EXPECT_NEAR(c.no_exchange, 6322.44, 0.01) << c.name;
    if (std::abs(c.error()) <= 0.10) continue;
    ++misses;
    EXPECT_GT(c.predicted, c.no_exchange) << c.name;
  }
  EXPECT_EQ(with, 36u);  // az-2x-m60's CIFAR-10 log (32) and InceptionV3 log (4); az-4x-m60's table has none
  EXPECT_EQ(misses, 14u);
}

}  // namespace
}  // namespace gpuprof::predict
