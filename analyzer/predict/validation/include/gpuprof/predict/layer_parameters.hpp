#pragma once

// Trainable parameters of a convolutional network counted from its layer shapes, for the validation rows whose
// source names a model but not its size (Rossum's tf_cnn_benchmarks log of 22 September 2017). The rules are
// those of tf_cnn_benchmarks as run there (TensorFlow 1.3): no batch norm in these models, so every convolution
// and affine layer carries one bias per output channel; the benchmark adds a last affine layer to the data
// set's classes + 1 (synthetic ImageNet: 1001). docs/predict.md writes the arithmetic out per model.

#include <cstdint>
#include <map>
#include <string>

namespace gpuprof::predict {

enum class Padding { same, valid };

// A square feature map `size` × `size` × `channels` walked through the layers, adding up their weights.
class LayerParameters {
 public:
  LayerParameters(std::int64_t image_size, std::int64_t channels);
  // A k × k convolution to `out` channels (weights k·k·in·out, biases out).
  LayerParameters& conv(std::int64_t out, std::int64_t k, std::int64_t stride = 1, Padding padding = Padding::same);
  LayerParameters& pool(std::int64_t k, std::int64_t stride, Padding padding);
  // A fully connected layer on the flattened map (weights in·out, biases out; in = size·size·channels).
  LayerParameters& affine(std::int64_t out);
  // GoogLeNet's inception module: 1×1 to k; 1×1 to l then 3×3 to m; 1×1 to n then 5×5 to p; 3×3 max pool then
  // 1×1 to q; the columns concatenated (k + m + p + q channels, the same size).
  LayerParameters& inception(std::int64_t k, std::int64_t l, std::int64_t m, std::int64_t n, std::int64_t p,
                             std::int64_t q);
  std::int64_t parameters() const { return parameters_; }
  std::int64_t size() const { return size_; }
  std::int64_t channels() const { return channels_; }

 private:
  std::int64_t size_, channels_, parameters_ = 0;
};

// tf_cnn_benchmarks' ImageNet models of the 22 September log (trivial, alexnet, lenet, googlenet, overfeat), each
// at the benchmark's image size for it, with 1001 classes, keyed by the name of the log's `--model` flag.
std::map<std::string, std::int64_t> tf_cnn_imagenet_parameters();
// tf_cnn_benchmarks' CIFAR-10 AlexNet (32 × 32, 11 classes), by the same rules: the cross-check against the
// count Rossum's measurements.md prints for it.
std::int64_t tf_cnn_cifar10_alexnet_parameters();
// tf_cnn_benchmarks' ImageNet VGG-16 (224 × 224, 1001 classes): the count the held-out PCIe rows state
// (heldout_pcie_cases.hpp).
std::int64_t tf_cnn_vgg16_parameters();

}  // namespace gpuprof::predict
