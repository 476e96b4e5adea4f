#pragma once

#include <memory>
#include <vector>

#include "conv_bn_unit.hpp"
#include "dense_layer.hpp"
#include "element_type.hpp"
#include "flat_parameters.hpp"
#include "parameter_layout.hpp"
#include "pooling_layer.hpp"
#include "residual_block.hpp"
#include "trainable_model.hpp"

namespace gpuprof::workloads {

struct ResnetConfig {
  int depth = 50;  // 18, 34 or 50
  int image_size = 224;
  int classes = 285;
  int max_batch = 0;
  bool channels_last = true;  // resnet_channels_last(options): --layout, by default NHWC but in fp32
  LayerChoices choices;       // --conv-algo, --batch-norm
};

// ResNet-18/34 (basic blocks) and ResNet-50 (bottleneck blocks, v1.5) for square RGB
// images in the configured layout: 7x7 stride-2 stem with batch norm and ReLU, 3x3 max pooling,
// four stages of residual blocks, global average pooling, a dense classifier and softmax
// cross-entropy. Batch rows are ImageSamples': the image as inputs, the class as the integer.
// With bf16 precision every activation from the images to the pooled features is bf16 (the
// images are rounded on the GPU); the classifier and the loss work in fp32.
class ResnetModel : public TrainableModel {
 public:
  ResnetModel(const DeviceContext& context, const ResnetConfig& config);

  std::size_t parameter_count() const override { return layout_.total(); }
  std::vector<ParameterGroup> parameter_groups() override;
  std::vector<float> initial_parameters(std::uint64_t seed) const override;
  std::vector<const DeviceContext*> input_contexts() const override { return {&context_}; }
  const DeviceContext& loss_context() const override { return context_; }

  void zero_gradients() override;
  void forward_loss(const std::vector<DeviceBatch>& batches, bool training, float loss_scale,
                    LossMetrics metrics) override;
  // Stage 0: the classifier; then one stage per residual block, last first; then the stem.
  int backward_stages() const override { return static_cast<int>(blocks_.size()) + 2; }
  void backward_stage(int stage) override;
  GradientRange stage_gradients(int stage) const override;

 private:
  void build_blocks();
  void create_parameters();
  void prepare(int batch);
  void* other_gradient(const void* current) {
    return current == gradient_a_.data() ? gradient_b_.data() : gradient_a_.data();
  }
  // The classifier's fp32 input and its gradient: pooled_ itself in fp32 runs, a widened copy in bf16 runs.
  float* features() { return bf16() ? widened_.data() : static_cast<float*>(pooled_.data()); }
  float* features_gradient() {
    return bf16() ? widened_gradient_.data() : static_cast<float*>(pooled_gradient_.data());
  }
  bool bf16() const { return element_ == ElementType::bf16; }
  ActivationBuffer activations(long long count, const std::string& what) const {
    return ActivationBuffer(element_, static_cast<std::size_t>(count), what);
  }

  const DeviceContext& context_;
  ResnetConfig config_;
  ElementType element_;
  std::unique_ptr<ConvBnUnit> stem_;
  std::unique_ptr<PoolingLayer> stem_pool_;
  std::vector<std::unique_ptr<ResidualBlock>> blocks_;
  std::unique_ptr<PoolingLayer> average_pool_;
  std::unique_ptr<DenseLayer> classifier_;
  ImageShape input_shape_;
  ImageShape pooled_shape_;   // after the stem's max pooling, at the largest batch
  ImageShape final_shape_;    // the last block's output, at the largest batch
  std::vector<ParameterOwner> owners_;
  std::vector<GradientRange> stage_ranges_;  // by backward stage
  ParameterLayout layout_;
  FlatParameters parameters_;
  DeviceArray<float> workspace_;
  std::size_t workspace_bytes_ = 0;
  ActivationBuffer images_bf16_;         // bf16 runs: the batch's images, rounded
  ActivationBuffer stem_pooled_;
  ActivationBuffer pooled_;              // [batch][final channels] after average pooling
  ActivationBuffer pooled_gradient_;
  DeviceArray<float> widened_;           // bf16 runs: pooled_ in fp32, the classifier's input
  DeviceArray<float> widened_gradient_;
  DeviceArray<float> logits_;
  DeviceArray<float> logits_gradient_;
  ActivationBuffer gradient_a_;          // the gradient passed between blocks (ping-pong)
  ActivationBuffer gradient_b_;
  ActivationBuffer scratch_first_;
  ActivationBuffer scratch_second_;
  ActivationBuffer scratch_norm_;
  const void* images_ = nullptr;
  void* current_gradient_ = nullptr;  // dL/d(output of the next stage to run backward)
  int batch_ = -1;
};

// Blocks per stage for a depth: 18 -> 2,2,2,2; 34 -> 3,4,6,3; 50 -> 3,4,6,3 (bottleneck).
std::vector<int> resnet_stage_blocks(int depth);

}  // namespace gpuprof::workloads
