#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "gpuprof/predict/baselines.hpp"
#include "gpuprof/predict/case_validation.hpp"
#include "gpuprof/predict/step_variability.hpp"
#include "gpuprof/predict/verdict_accounting.hpp"
#include "gpuprof/predict/verdict_lean.hpp"
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

// Beside the 18 uncertain calls the centre's lean (verdict_lean.hpp), judged against the stated 1-GPU variability
// (the rows' 1-GPU traces are synthetic): 4 too close to call (ResNet50 on 2 GPUs, both parameter servers, both
// make_parallels: centres 0.98x to 1.03x), and on the wrong side once: overfeat on 2 M60s (22 September log), centre
// 0.755x, measured 1.006x, which counts as faster although it is within the stated 1-GPU variability of 1x. On the
// 22 runs no faster than one, the call and then the lean are right on 20, too close on 1 (avolkov1's ResNet50, PS
// on the CPU: centre 0.997x, measured 0.96x) and wrong on 1 (kUnexplained); both baselines call all 22 faster.
TEST_F(RossumCases, TheLeanBesideAnUncertainVerdictIsWrongOnlyOnARunWithinTheVariabilityOfOneGpu) {
  const auto rows = band_rows_left_out(cases_, cases_, 0.8);
  const auto account = account_verdicts(rows, kStatedStepVariability);
  EXPECT_EQ(account.all.rows, 120u);
  EXPECT_EQ(account.all.band_uncertain, 18u);
  EXPECT_EQ(account.all.lean_of_uncertain.right, 13u);
  EXPECT_EQ(account.all.lean_of_uncertain.wrong, 1u);
  EXPECT_EQ(account.all.lean_of_uncertain.too_close, 4u);
  for (const auto& c : rows) {
    if (!c.uncertain) continue;
    const auto lean = lean_of(c.predicted / c.one_gpu, kStatedStepVariability);
    if (lean == Lean::too_close || (lean == Lean::faster) == (c.measured > c.one_gpu)) continue;
    EXPECT_LT(std::abs(c.measured / c.one_gpu - 1), kStatedStepVariability) << c.name;
  }
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
  EXPECT_EQ(coverage.cases, 120u);
  EXPECT_GE(coverage.share(), 0.80) << coverage.inside << " of " << coverage.cases;
}

TEST_F(RossumCases, ShippedPcieReplicaLossIsTheCalibrationOfTheRossumRuns) {
  for (const auto& c : cases_) EXPECT_TRUE(c.over_pcie) << c.name;
  EXPECT_NEAR(calibrate_by_source(cases_, 0.8), kPcieReplicaLoss, 5e-4);
}

TEST_F(RossumCases, PredictBeatsBothBaselinesOnTheseRuns) {
  ASSERT_EQ(cases_.size(), 120u);  // CIFAR-10 42, Keras 28, tf_cnn_benchmarks 47, kuza55 MLP 3
  const auto c = compare_with_baselines(band_rows_left_out(cases_, cases_, 0.8));
  EXPECT_LT(c.all.predict.median_error, c.all.linear.median_error);
  EXPECT_LT(c.all.predict.median_error, c.all.constant.median_error);
  EXPECT_GT(c.all.predict.within_10, std::max(c.all.linear.within_10, c.all.constant.within_10));
  EXPECT_GT(c.all.predict.verdict_right, std::max(c.all.linear.verdict_right, c.all.constant.verdict_right));
  // One verdict is wrong (kUnexplained); 15 are uncertain (the band straddles 1x), among them avolkov1's ResNet50
  // on 2 GPUs with the parameter server on a GPU (measured 1.15x, centre 0.98x), which the centre called wrong.
  EXPECT_GE(c.all.predict.verdict_right, 101u);
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
  EXPECT_EQ(before, 64u);
  EXPECT_LT(within_10(left_out), before);
}

// The largest tf_cnn_benchmarks misses on az-2x-m60 (AlexNet on CIFAR-10 +53 to +62 %, ResNet20 +20 to +27 %) are
// not the exchange: the same log's `independent` runs, which exchange nothing, reach 1.22x and 1.74x, and every
// tf_cnn run predicted more than 10 % above its measurement is predicted above that. No link, topology or overlap
// model can close them. The one miss the other way, ImageNet AlexNet with the parameter server on GPU 0 (22
// September log: centre 1.67x, measured 1.92x, exchanging nothing 1.99x), hides most of its exchange.
TEST_F(RossumCases, TfCnnMissesArePredictedAboveTheSameGpusExchangingNothing) {
  std::size_t with = 0, over = 0, under = 0;
  for (const auto& c : cases_) {
    if (c.no_exchange <= 0) continue;
    ++with;
    const bool imagenet = from_rossum_imagenet_log(c);
    if (c.name.find("alexnet") != std::string::npos)
      EXPECT_NEAR(c.no_exchange, imagenet ? 1803.92 : 6322.44, 0.01) << c.name;
    if (c.error() > 0.10) {
      ++over;
      EXPECT_GT(c.predicted, c.no_exchange) << c.name;
    }
    if (c.error() < -0.10) {
      ++under;
      EXPECT_TRUE(imagenet) << c.name;
    }
  }
  // az-2x-m60's CIFAR-10 log (32), InceptionV3 log (4) and the 22 September log's AlexNet (4); az-4x-m60's table
  // has none.
  EXPECT_EQ(with, 40u);
  EXPECT_EQ(over, 14u);
  EXPECT_EQ(under, 1u);
}

// The tf_cnn_benchmarks log of 22 September (ImageNet models on 2 M60s, their sizes counted from the layers), added
// after every PCIe figure was calibrated and fitted to nothing: a check. Its rows are one source of their own, so
// leave one source out never calibrates their band on them. 8 runs (alexnet with PS on the CPU, replicated with and
// without NCCL, PS on the GPU; trivial, lenet, googlenet, overfeat with PS on the GPU); none was slower on 2 GPUs.
TEST_F(RossumCases, ImageNetLogOfTwentySecondSeptemberCheckedLeaveOneSourceOut) {
  std::vector<CaseResult> others;
  for (const auto& c : cases_)
    if (!from_rossum_imagenet_log(c)) others.push_back(c);
  ASSERT_EQ(others.size(), 112u);
  std::size_t rows = 0, in_band = 0, within = 0, right = 0, uncertain = 0, wrong = 0;
  for (const auto& c : band_rows_left_out(cases_, cases_, 0.8)) {
    if (!from_rossum_imagenet_log(c)) continue;
    // Their band's replica loss is the one the other sources give, with or without these rows among them.
    EXPECT_DOUBLE_EQ(c.low, band_rows_left_out(others, {c}, 0.8).front().low) << c.name;
    ++rows, in_band += c.in_band(), within += std::abs(c.error()) <= 0.10;
    right += c.verdict_right, uncertain += c.uncertain, wrong += !c.verdict_right && !c.uncertain;
    EXPECT_GT(c.measured, c.one_gpu) << c.name;
  }
  EXPECT_EQ(rows, 8u);
  EXPECT_EQ(in_band, 8u);
  EXPECT_EQ(within, 6u);  // the misses: overfeat (centre 0.755x, measured 1.006x) and alexnet with PS on the GPU
  EXPECT_EQ(right, 5u);   // uncertain: trivial and lenet (1.26x measured) and overfeat
  EXPECT_EQ(uncertain, 3u);
  EXPECT_EQ(wrong, 0u);
}

}  // namespace
}  // namespace gpuprof::predict
