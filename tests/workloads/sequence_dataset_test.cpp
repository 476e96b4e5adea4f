#include "sequence_dataset.hpp"

#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

namespace gpuprof::workloads {
namespace {

SequenceDataConfig small_config(std::uint64_t seed) { return {1200, 400, 12, 5, 4, seed}; }

TEST(SequenceDataset, SameSeedGivesSameData) {
  const SequenceData first = generate_sequence_data(small_config(7));
  const SequenceData second = generate_sequence_data(small_config(7));
  EXPECT_EQ(first.train.inputs, second.train.inputs);
  EXPECT_EQ(first.train.labels, second.train.labels);
  EXPECT_EQ(first.validation.inputs, second.validation.inputs);
  EXPECT_EQ(first.validation.labels, second.validation.labels);
}

TEST(SequenceDataset, DifferentSeedGivesDifferentData) {
  const SequenceData first = generate_sequence_data(small_config(7));
  const SequenceData second = generate_sequence_data(small_config(8));
  EXPECT_NE(first.train.inputs, second.train.inputs);
}

TEST(SequenceDataset, ShapesMatchTheConfiguration) {
  const SequenceData data = generate_sequence_data(small_config(1));
  EXPECT_EQ(data.train.samples, 1200);
  EXPECT_EQ(data.validation.samples, 400);
  EXPECT_EQ(data.train.inputs.size(), 1200U * 12U * 5U);
  EXPECT_EQ(data.train.labels.size(), 1200U);
  for (float value : data.train.inputs) {
    ASSERT_GE(value, -1.0F);
    ASSERT_LE(value, 1.0F);
  }
}

TEST(SequenceDataset, ClassesAreBalanced) {
  const SequenceData data = generate_sequence_data(small_config(3));
  std::vector<int> counts(4, 0);
  for (auto label : data.train.labels) {
    ASSERT_GE(label, 0);
    ASSERT_LT(label, 4);
    ++counts[static_cast<std::size_t>(label)];
  }
  // Quantile labels over train+validation: each class holds a quarter of all
  // samples; a random 75% subset stays within a few percent of a quarter.
  for (int count : counts) {
    EXPECT_GT(count, 300 - 45);
    EXPECT_LT(count, 300 + 45);
  }
}

TEST(SequenceDataset, LabelsDependOnTheSequenceNotOnItsIndex) {
  // Two equal sequences would get equal labels; different seeds give different
  // label sequences, so labels are not a fixed pattern of the index.
  const SequenceData first = generate_sequence_data(small_config(3));
  const SequenceData second = generate_sequence_data(small_config(4));
  EXPECT_NE(first.train.labels, second.train.labels);
}

TEST(EpochOrder, IsADeterministicPermutation) {
  const auto order = epoch_order(100, 5, 2);
  EXPECT_EQ(order, epoch_order(100, 5, 2));
  EXPECT_NE(order, epoch_order(100, 5, 3));
  auto sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 100; ++i) EXPECT_EQ(sorted[static_cast<std::size_t>(i)], i);
}

TEST(GatherBatch, CopiesTheNamedSamples) {
  const SequenceData data = generate_sequence_data(small_config(1));
  const std::vector<std::int32_t> order = {5, 9, 2, 7};
  std::vector<float> inputs(2U * 12U * 5U);
  std::vector<std::int32_t> labels(2);
  gather_batch(data.train, order, 1, 2, inputs.data(), labels.data());
  EXPECT_EQ(labels[0], data.train.labels[9]);
  EXPECT_EQ(labels[1], data.train.labels[2]);
  EXPECT_EQ(inputs[0], data.train.sequence(9)[0]);
  EXPECT_EQ(inputs[60], data.train.sequence(2)[0]);
  EXPECT_EQ(inputs[119], data.train.sequence(2)[59]);
}

}  // namespace
}  // namespace gpuprof::workloads
