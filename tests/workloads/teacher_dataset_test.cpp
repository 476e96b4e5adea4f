#include "teacher_dataset.hpp"

#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "workload_data.hpp"

namespace gpuprof::workloads {
namespace {

TeacherDataConfig small_config() { return TeacherDataConfig{64, 900, 100, 3}; }

TEST(TeacherDataset, IsDeterministicInTheSeed) {
  const TeacherData a = generate_teacher_data(small_config());
  const TeacherData b = generate_teacher_data(small_config());
  EXPECT_EQ(a.train.inputs, b.train.inputs);
  EXPECT_EQ(a.train.targets, b.train.targets);
  TeacherDataConfig other = small_config();
  other.seed = 4;
  EXPECT_NE(generate_teacher_data(other).train.inputs, a.train.inputs);
}

TEST(TeacherDataset, ClassesAreBalancedAndDecidedByTheTeacher) {
  const TeacherData data = generate_teacher_data(small_config());
  double positives = 0.0;
  double lowest_positive = 1e300;
  double highest_negative = -1e300;
  for (int i = 0; i < data.train.samples; ++i) {
    const float target = data.train.targets[static_cast<std::size_t>(i)];
    const double score = data.train.scores[static_cast<std::size_t>(i)];
    ASSERT_TRUE(target == 0.0F || target == 1.0F);
    positives += target;
    if (target > 0.5F) {
      lowest_positive = std::min(lowest_positive, score);
    } else {
      highest_negative = std::max(highest_negative, score);
    }
  }
  EXPECT_NEAR(positives / data.train.samples, 0.5, 0.05);
  EXPECT_GT(lowest_positive, highest_negative);  // the label is a threshold on the teacher's score
}

// Learnability: the features carry the latents, so the mean feature vectors of the two
// classes differ clearly (a linear probe along their difference already separates them).
TEST(TeacherDataset, FeaturesSeparateTheClasses) {
  const TeacherData data = generate_teacher_data(small_config());
  const auto features = static_cast<std::size_t>(data.train.features);
  std::vector<double> mean[2] = {std::vector<double>(features, 0.0), std::vector<double>(features, 0.0)};
  double count[2] = {0.0, 0.0};
  for (int i = 0; i < data.train.samples; ++i) {
    const int label = data.train.targets[static_cast<std::size_t>(i)] > 0.5F ? 1 : 0;
    count[label] += 1.0;
    for (std::size_t f = 0; f < features; ++f) mean[label][f] += data.train.inputs[i * features + f];
  }
  std::vector<double> direction(features);
  for (std::size_t f = 0; f < features; ++f) direction[f] = mean[1][f] / count[1] - mean[0][f] / count[0];
  double midpoint = 0.0;
  for (std::size_t f = 0; f < features; ++f) {
    midpoint += direction[f] * (mean[1][f] / count[1] + mean[0][f] / count[0]) / 2;
  }
  double correct = 0.0;
  for (int i = 0; i < data.validation.samples; ++i) {
    double projection = 0.0;
    for (std::size_t f = 0; f < features; ++f) projection += direction[f] * data.validation.inputs[i * features + f];
    correct += (projection > midpoint) == (data.validation.targets[static_cast<std::size_t>(i)] > 0.5F) ? 1.0 : 0.0;
  }
  EXPECT_GT(correct / data.validation.samples, 0.65);
}

TEST(TeacherDataset, SamplesWriteFeaturesAndTarget) {
  const TeacherData data = generate_teacher_data(small_config());
  const DenseSamples samples(data.validation);
  ASSERT_EQ(samples.samples(), 100);
  const SampleShape shape = samples.shape();
  EXPECT_EQ(shape.inputs, 64U);
  EXPECT_EQ(shape.targets, 1U);
  EXPECT_EQ(shape.ints, 0U);
  std::vector<float> inputs(64);
  float target = -1.0F;
  samples.write_sample(3, inputs.data(), &target, nullptr);
  EXPECT_EQ(inputs[5], data.validation.inputs[3 * 64 + 5]);
  EXPECT_EQ(target, data.validation.targets[3]);
}

TEST(WorkloadData, GivesEachModelItsSamples) {
  WorkloadOptions options;
  options.train_samples = 64;
  options.validation_samples = 16;
  options.model = "towers";
  options.users = 10;
  options.items = 10;
  options.vocab = 50;
  options.review_len = 12;
  const WorkloadData towers(options);
  EXPECT_EQ(towers.train().shape().ints, 24U);
  EXPECT_EQ(towers.validation().samples(), 16);
  options.model = "mlp";
  const WorkloadData mlp(options);
  EXPECT_EQ(mlp.train().shape().inputs, static_cast<std::size_t>(mlp_features));
  options.model = "rnn";
  const WorkloadData rnn(options);
  EXPECT_EQ(rnn.train().shape().ints, 1U);
  EXPECT_EQ(rnn.train().shape().inputs, static_cast<std::size_t>(options.seq_len * options.features));
}

}  // namespace
}  // namespace gpuprof::workloads
