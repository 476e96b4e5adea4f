#include "image_dataset.hpp"

#include <cstdint>

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace gpuprof::workloads {
namespace {

ImageDataConfig small_config() { return ImageDataConfig{400, 32, 10, 7, 0}; }

std::vector<float> image(const ImageSamples& samples, int index, int* label) {
  std::vector<float> pixels(samples.shape().inputs);
  std::int32_t value = -1;
  samples.write_sample(index, pixels.data(), nullptr, &value);
  *label = value;
  return pixels;
}

TEST(ImageDataset, ImagesDependOnlyOnSeedAndIndex) {
  const ImageSamples a(small_config());
  const ImageSamples b(small_config());
  int label_a = 0, label_b = 0;
  EXPECT_EQ(image(a, 5, &label_a), image(b, 5, &label_b));
  EXPECT_EQ(label_a, label_b);
  EXPECT_EQ(label_a, a.label_of(5));
  EXPECT_NE(image(a, 5, &label_a), image(a, 6, &label_b));
  ImageDataConfig validation = small_config();
  validation.first_index = 400;  // the validation set continues after the training images
  const ImageSamples c(validation);
  int label_c = 0;
  EXPECT_EQ(image(c, 0, &label_c), image(ImageSamples(ImageDataConfig{401, 32, 10, 7, 0}), 400, &label_a));
}

TEST(ImageDataset, PlanarLayoutHoldsTheSamePixels) {
  ImageDataConfig planar_config = small_config();
  planar_config.channels_last = false;
  const ImageSamples interleaved(small_config());
  const ImageSamples planar(planar_config);
  int label_a = 0, label_b = 0;
  const std::vector<float> a = image(interleaved, 3, &label_a);
  const std::vector<float> b = image(planar, 3, &label_b);
  EXPECT_EQ(label_a, label_b);
  const std::size_t plane = 32 * 32;
  for (std::size_t position = 0; position < plane; position += 37) {
    for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(a[position * 3 + c], b[c * plane + position]);
  }
}

// Batches are assembled on several host threads; each row depends only on its sample, so
// any thread count gives the same bytes, for shuffled (training) and stored (validation) order.
TEST(ImageDataset, BatchesAreTheSameOnAnyNumberOfLoaderThreads) {
  const ImageSamples samples(small_config());
  const std::size_t row = samples.shape().inputs;
  std::vector<std::int32_t> order(400);
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int32_t>((i * 37) % 400);
  auto gather = [&](int threads, bool shuffled) {
    std::vector<float> inputs(13 * row, -1.0F);
    std::vector<std::int32_t> labels(13, -1);
    if (shuffled) {
      gather_samples(samples, order, 50, 13, inputs.data(), nullptr, labels.data(), threads);
    } else {
      gather_range(samples, 50, 13, inputs.data(), nullptr, labels.data(), threads);
    }
    inputs.insert(inputs.end(), labels.begin(), labels.end());
    return inputs;
  };
  for (const bool shuffled : {true, false}) {
    const std::vector<float> one = gather(1, shuffled);
    EXPECT_EQ(std::count(one.begin(), one.end(), -1.0F), 0);  // every row and label written
    for (int threads : {2, 4, 13, 64}) EXPECT_EQ(gather(threads, shuffled), one) << threads << " threads";
  }
}

TEST(ImageDataset, ShapeIsChannelsLastWithOneLabel) {
  const ImageSamples samples(small_config());
  EXPECT_EQ(samples.shape().inputs, 32U * 32U * 3U);
  EXPECT_EQ(samples.shape().ints, 1U);
  EXPECT_EQ(samples.samples(), 400);
}

TEST(ImageDataset, EveryClassAppearsAndHasItsOwnPattern) {
  const ImageSamples samples(small_config());
  std::vector<int> counts(10, 0);
  for (int i = 0; i < samples.samples(); ++i) counts[static_cast<std::size_t>(samples.label_of(i))] += 1;
  for (int count : counts) EXPECT_GT(count, 20);
  for (int a = 0; a < 10; ++a) {
    for (int b = a + 1; b < 10; ++b) {
      const ImageClass& first = samples.image_class(a);
      const ImageClass& second = samples.image_class(b);
      EXPECT_FALSE(first.frequency_x == second.frequency_x && first.frequency_y == second.frequency_y);
    }
  }
}

// Learnability: an image's mean colour is its class colour plus noise that averages out,
// so images of one class are closer to their own class colour than to any other's.
TEST(ImageDataset, MeanColourIdentifiesTheClass) {
  const ImageSamples samples(small_config());
  int correct = 0;
  for (int i = 0; i < 100; ++i) {
    int label = 0;
    const std::vector<float> pixels = image(samples, i, &label);
    double mean[3] = {0, 0, 0};
    const double per_channel = static_cast<double>(pixels.size()) / 3.0;
    for (std::size_t p = 0; p < pixels.size(); ++p) mean[p % 3] += pixels[p] / per_channel;
    int best = 0;
    double best_distance = 1e300;
    for (int c = 0; c < 10; ++c) {
      double distance = 0.0;
      for (int k = 0; k < 3; ++k) distance += std::pow(mean[k] - samples.image_class(c).colour[k], 2);
      if (distance < best_distance) {
        best_distance = distance;
        best = c;
      }
    }
    correct += best == label ? 1 : 0;
  }
  EXPECT_GT(correct, 80);
}

}  // namespace
}  // namespace gpuprof::workloads
