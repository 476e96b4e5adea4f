#include "gpuprof/predict/layer_parameters.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

// Parameter counts of tf_cnn_benchmarks' models from their layer shapes (docs/predict.md, "The tf_cnn_benchmarks
// log of 22 September"): the gradient bytes of the validation rows whose log names the model but not its size.

namespace gpuprof::predict {
namespace {

// The counting rules checked on a model whose count the source prints: measurements.md gives tf_cnn_benchmarks'
// CIFAR-10 AlexNet as 1,756,620 parameters; the layers give one fewer (a scalar outside the layers, such as the
// global step, would account for it).
TEST(LayerParameters, CifarAlexnetMatchesTheCountRossumPrints) {
  EXPECT_EQ(tf_cnn_cifar10_alexnet_parameters(), 1'756'620 - 1);
}

TEST(LayerParameters, ImagenetModelsOfTheTwentySecondSeptemberLog) {
  const auto models = tf_cnn_imagenet_parameters();
  ASSERT_EQ(models.size(), 5u);
  EXPECT_EQ(models.at("trivial"), 4'263'877);
  EXPECT_EQ(models.at("alexnet"), 61'842'345);
  EXPECT_EQ(models.at("lenet"), 2'173'353);
  EXPECT_EQ(models.at("googlenet"), 6'999'577);
  EXPECT_EQ(models.at("overfeat"), 145'924'969);
}

// The map sizes the models' own reshapes name: AlexNet 6 x 6 x 256 from 227, OverFeat 6 x 6 x 1024 from 231, LeNet
// 7 x 7 x 64 from 28, GoogLeNet 7 x 7 x 1024 before its average pool.
TEST(LayerParameters, FeatureMapsFollowPaddingAndStride) {
  LayerParameters alexnet(227, 3);
  alexnet.conv(64, 11, 4, Padding::valid);
  EXPECT_EQ(alexnet.size(), 55);
  alexnet.pool(3, 2, Padding::valid).conv(192, 5).pool(3, 2, Padding::valid);
  EXPECT_EQ(alexnet.size(), 13);
  alexnet.conv(384, 3).conv(384, 3).conv(256, 3).pool(3, 2, Padding::valid);
  EXPECT_EQ(alexnet.size() * alexnet.size() * alexnet.channels(), 256 * 6 * 6);
  LayerParameters googlenet(224, 3);
  googlenet.conv(64, 7, 2).pool(3, 2, Padding::same);
  EXPECT_EQ(googlenet.size(), 56);
  EXPECT_EQ(LayerParameters(28, 3).conv(32, 5).pool(2, 2, Padding::valid).size(), 14);
}

TEST(LayerParameters, OneLayerByHand) {
  // 3 x 3 x 2 -> 4 weights and 4 biases; then 2 x 2 x 4 = 16 inputs to 5 units with 5 biases.
  LayerParameters net(2, 2);
  net.conv(4, 3);
  EXPECT_EQ(net.parameters(), 3 * 3 * 2 * 4 + 4);
  net.affine(5);
  EXPECT_EQ(net.parameters(), 3 * 3 * 2 * 4 + 4 + 16 * 5 + 5);
  // An inception module on 10 channels: 1x1->1, 1x1->2 then 3x3->3, 1x1->1 then 5x5->2, pool then 1x1->1.
  LayerParameters module(4, 10);
  module.inception(1, 2, 3, 1, 2, 1);
  EXPECT_EQ(module.parameters(), (10 + 1) + (20 + 2) + (9 * 2 * 3 + 3) + (10 + 1) + (25 * 1 * 2 + 2) + (10 + 1));
  EXPECT_EQ(module.channels(), 1 + 3 + 2 + 1);
}

TEST(LayerParameters, ImpossibleLayersAreRefused) {
  EXPECT_THROW(LayerParameters(4, 3).conv(8, 5, 1, Padding::valid), std::invalid_argument);
  EXPECT_THROW(LayerParameters(4, 3).pool(2, 0, Padding::same), std::invalid_argument);
}

}  // namespace
}  // namespace gpuprof::predict
