#pragma once

#include <array>
#include <vector>

#include "dense_layer.hpp"
#include "device_array.hpp"
#include "flat_parameters.hpp"
#include "layer_kernels.hpp"
#include "parameter_layout.hpp"
#include "trainable_model.hpp"

namespace gpuprof::workloads {

// A large dense binary classifier: 8000 -> 4000 (tanh) -> 2000 -> 500 -> 300 (ReLU)
// -> 1 (sigmoid, folded into the binary cross-entropy), about 41 M parameters, so
// gradient exchange is heavy and data-parallel scaling depends on the batch size.
class MlpModel : public TrainableModel {
 public:
  static constexpr std::array<int, 6> widths{8000, 4000, 2000, 500, 300, 1};
  static constexpr int layer_count = 5;

  MlpModel(const DeviceContext& context, int max_batch);

  std::size_t parameter_count() const override { return layout_.total(); }
  std::vector<ParameterGroup> parameter_groups() override;
  std::vector<float> initial_parameters(std::uint64_t seed) const override;
  std::vector<const DeviceContext*> input_contexts() const override { return {&context_}; }
  const DeviceContext& loss_context() const override { return context_; }

  void zero_gradients() override;
  void forward_loss(const std::vector<DeviceBatch>& batches, bool training, float loss_scale,
                    LossMetrics metrics) override;
  // One stage per layer, the output layer first.
  int backward_stages() const override { return layer_count; }
  void backward_stage(int stage) override;
  GradientRange stage_gradients(int stage) const override;

 private:
  static ActivationKind activation(int layer) { return layer == 0 ? ActivationKind::tanh : ActivationKind::relu; }

  const DeviceContext& context_;
  std::vector<DenseLayer> layers_;
  ParameterLayout layout_;
  FlatParameters parameters_;
  std::vector<DeviceArray<float>> outputs_;    // per layer, after its activation (logits for the last)
  std::vector<DeviceArray<float>> gradients_of_outputs_;
  DeviceArray<float> pre_activation_gradient_;
  const float* input_ = nullptr;
  int batch_ = 0;
};

}  // namespace gpuprof::workloads
