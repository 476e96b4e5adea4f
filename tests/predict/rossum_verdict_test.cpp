#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "gpuprof/predict/baselines.hpp"
#include "gpuprof/predict/case_validation.hpp"
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

TEST_F(RossumCases, VerdictRightOnEveryRunNoFasterThanOne) {
  std::size_t no_faster = 0;
  for (const auto& c : cases_) {
    if (c.measured > c.one_gpu) continue;
    ++no_faster;
    EXPECT_TRUE(c.verdict_right) << c.name << ": predicted " << c.predicted << ", measured " << c.measured
                                 << ", 1 GPU " << c.one_gpu;
  }
  // CIFAR-10 at batch 32 on 2-6 GPUs; InceptionV3 and ResNet50 with the parameter server on a GPU at 4 and 6
  // GPUs; avolkov1's ResNet50 with it on the CPU at 2 GPUs.
  EXPECT_EQ(no_faster, 12u);
}

TEST_F(RossumCases, PredictBeatsBothBaselinesOnTheseRuns) {
  ASSERT_EQ(cases_.size(), 85u);  // CIFAR-10 15, Keras 28, tf_cnn_benchmarks 39, kuza55 MLP 3
  const auto c = compare_with_baselines(cases_);
  EXPECT_LT(c.all.predict.median_error, c.all.linear.median_error);
  EXPECT_LT(c.all.predict.median_error, c.all.constant.median_error);
  EXPECT_GT(c.all.predict.within_10, std::max(c.all.linear.within_10, c.all.constant.within_10));
  EXPECT_GT(c.all.predict.verdict_right, std::max(c.all.linear.verdict_right, c.all.constant.verdict_right));
  // One verdict is wrong today: avolkov1's ResNet50 on 2 GPUs with the parameter server on a GPU, measured
  // 1.15x, predicted 0.98x (docs/predict.md).
  EXPECT_GE(c.all.predict.verdict_right, 84u);
}

}  // namespace
}  // namespace gpuprof::predict
