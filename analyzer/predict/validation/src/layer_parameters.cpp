#include "gpuprof/predict/layer_parameters.hpp"

#include <stdexcept>
#include <utility>

namespace gpuprof::predict {
namespace {

std::int64_t out_size(std::int64_t in, std::int64_t k, std::int64_t stride, Padding padding) {
  if (stride < 1 || k < 1) throw std::invalid_argument("layer with a kernel or stride below 1");
  if (padding == Padding::same) return (in + stride - 1) / stride;
  if (in < k) throw std::invalid_argument("VALID layer larger than its input");
  return (in - k) / stride + 1;
}

}  // namespace

LayerParameters::LayerParameters(std::int64_t image_size, std::int64_t channels)
    : size_(image_size), channels_(channels) {}

LayerParameters& LayerParameters::conv(std::int64_t out, std::int64_t k, std::int64_t stride, Padding padding) {
  parameters_ += k * k * channels_ * out + out;
  size_ = out_size(size_, k, stride, padding), channels_ = out;
  return *this;
}

LayerParameters& LayerParameters::pool(std::int64_t k, std::int64_t stride, Padding padding) {
  size_ = out_size(size_, k, stride, padding);
  return *this;
}

LayerParameters& LayerParameters::affine(std::int64_t out) {
  parameters_ += size_ * size_ * channels_ * out + out;
  size_ = 1, channels_ = out;
  return *this;
}

LayerParameters& LayerParameters::inception(std::int64_t k, std::int64_t l, std::int64_t m, std::int64_t n,
                                            std::int64_t p, std::int64_t q) {
  const auto in = channels_;
  parameters_ += (in * k + k) + (in * l + l) + (9 * l * m + m) + (in * n + n) + (25 * n * p + p) + (in * q + q);
  channels_ = k + m + p + q;
  return *this;
}

std::map<std::string, std::int64_t> tf_cnn_imagenet_parameters() {
  constexpr std::int64_t kClasses = 1001;  // ImageNet's 1000 and the benchmark's background class
  std::map<std::string, std::int64_t> models;
  // trivial: the 227 × 227 × 3 image to 1 unit, then 4096.
  models["trivial"] = LayerParameters(227, 3).affine(1).affine(4096).affine(kClasses).parameters();
  models["alexnet"] = LayerParameters(227, 3)
                          .conv(64, 11, 4, Padding::valid)
                          .pool(3, 2, Padding::valid)
                          .conv(192, 5)
                          .pool(3, 2, Padding::valid)
                          .conv(384, 3)
                          .conv(384, 3)
                          .conv(256, 3)
                          .pool(3, 2, Padding::valid)  // 6 × 6 × 256 = 9216
                          .affine(4096)
                          .affine(4096)
                          .affine(kClasses)
                          .parameters();
  models["lenet"] = LayerParameters(28, 3)
                        .conv(32, 5)
                        .pool(2, 2, Padding::valid)
                        .conv(64, 5)
                        .pool(2, 2, Padding::valid)  // 7 × 7 × 64 = 3136
                        .affine(512)
                        .affine(kClasses)
                        .parameters();
  LayerParameters googlenet(224, 3);
  googlenet.conv(64, 7, 2).pool(3, 2, Padding::same).conv(64, 1).conv(192, 3).pool(3, 2, Padding::same);
  googlenet.inception(64, 96, 128, 16, 32, 32).inception(128, 128, 192, 32, 96, 64).pool(3, 2, Padding::same);
  googlenet.inception(192, 96, 208, 16, 48, 64).inception(160, 112, 224, 24, 64, 64);
  googlenet.inception(128, 128, 256, 24, 64, 64).inception(112, 144, 288, 32, 64, 64);
  googlenet.inception(256, 160, 320, 32, 128, 128).pool(3, 2, Padding::same);
  googlenet.inception(256, 160, 320, 32, 128, 128).inception(384, 192, 384, 48, 128, 128);
  models["googlenet"] = googlenet.pool(7, 1, Padding::valid).affine(kClasses).parameters();  // 1 × 1 × 1024
  models["overfeat"] = LayerParameters(231, 3)
                           .conv(96, 11, 4, Padding::valid)
                           .pool(2, 2, Padding::valid)
                           .conv(256, 5, 1, Padding::valid)
                           .pool(2, 2, Padding::valid)
                           .conv(512, 3)
                           .conv(1024, 3)
                           .conv(1024, 3)
                           .pool(2, 2, Padding::valid)  // 6 × 6 × 1024 = 36864
                           .affine(3072)
                           .affine(4096)
                           .affine(kClasses)
                           .parameters();
  return models;
}

std::int64_t tf_cnn_cifar10_alexnet_parameters() {
  return LayerParameters(32, 3)
      .conv(64, 5)
      .pool(3, 2, Padding::same)
      .conv(64, 5)
      .pool(3, 2, Padding::same)  // 8 × 8 × 64 = 4096
      .affine(384)
      .affine(192)
      .affine(11)
      .parameters();
}

// tf_cnn_benchmarks' vgg16: five stages of 3 × 3 convolutions (2, 2, 3, 3, 3 of them; 64 to 512 channels), each
// followed by a 2 × 2 max pool, then affine layers of 4096, 4096 and 1001 units, at 224 × 224.
std::int64_t tf_cnn_vgg16_parameters() {
  LayerParameters net(224, 3);
  for (const auto& [channels, convolutions] : {std::pair{64, 2}, {128, 2}, {256, 3}, {512, 3}, {512, 3}}) {
    for (int i = 0; i < convolutions; ++i) net.conv(channels, 3);
    net.pool(2, 2, Padding::valid);
  }
  return net.affine(4096).affine(4096).affine(1001).parameters();
}

}  // namespace gpuprof::predict
