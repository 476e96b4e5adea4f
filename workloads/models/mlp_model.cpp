#include "mlp_model.hpp"

#include <algorithm>
#include <span>

#include "deterministic_random.hpp"

namespace gpuprof::workloads {
namespace {
constexpr std::uint64_t initialization_stream = 400;
}

MlpModel::MlpModel(const DeviceContext& context, int max_batch) : context_(context) {
  context.make_current();
  const auto batch = static_cast<std::size_t>(max_batch);
  for (int l = 0; l < layer_count; ++l) {
    layers_.emplace_back(widths[static_cast<std::size_t>(l)], widths[static_cast<std::size_t>(l) + 1]);
    layout_.add("dense" + std::to_string(l + 1), layers_.back().parameter_count());
    const auto width = static_cast<std::size_t>(widths[static_cast<std::size_t>(l) + 1]);
    outputs_.emplace_back(batch * width, "mlp layer output");
    gradients_of_outputs_.emplace_back(batch * width, "mlp layer output gradient");
  }
  // Dense layers multiply fp32 arrays in every precision: no bf16 copies.
  parameters_ = FlatParameters(layout_, false);
  pre_activation_gradient_ = DeviceArray<float>(batch * static_cast<std::size_t>(widths[1]), "mlp gradient");
  for (int l = 0; l < layer_count; ++l) {
    layers_[static_cast<std::size_t>(l)].bind(parameters_.slice(layout_.entry(static_cast<std::size_t>(l))));
  }
}

std::vector<ParameterGroup> MlpModel::parameter_groups() {
  return {parameters_.group(context_)};
}

std::vector<float> MlpModel::initial_parameters(std::uint64_t seed) const {
  std::vector<float> values(layout_.total(), 0.0F);
  DeterministicRandom random(derive_seed(seed, initialization_stream));
  for (int l = 0; l < layer_count; ++l) {
    const auto& entry = layout_.entry(static_cast<std::size_t>(l));
    layers_[static_cast<std::size_t>(l)].initialize(std::span<float>(values.data() + entry.offset, entry.count),
                                                    random);
  }
  return values;
}

void MlpModel::zero_gradients() { parameters_.zero_gradients(context_.compute_stream()); }

void MlpModel::forward_loss(const std::vector<DeviceBatch>& batches, bool /*training*/, float loss_scale,
                            LossMetrics metrics) {
  const DeviceBatch& batch = batches.front();
  batch_ = batch.size;
  input_ = batch.inputs;
  context_.make_current();
  const float* input = input_;
  for (int l = 0; l < layer_count; ++l) {
    const auto layer = static_cast<std::size_t>(l);
    float* output = outputs_[layer].data();
    layers_[layer].forward(context_, input, batch_, output);
    if (l + 1 < layer_count) {
      launch_activation_forward(activation(l), output, output, batch_ * widths[layer + 1], context_.compute_stream());
    }
    input = output;
  }
  binary_cross_entropy_with_logits(outputs_.back().data(), batch.targets, batch_, loss_scale,
                                   gradients_of_outputs_.back().data(), metrics, context_.compute_stream());
}

void MlpModel::backward_stage(int stage) {
  const int l = layer_count - 1 - stage;
  const auto layer = static_cast<std::size_t>(l);
  context_.make_current();
  const float* gradient = gradients_of_outputs_[layer].data();
  if (l + 1 < layer_count) {
    launch_activation_backward(activation(l), outputs_[layer].data(), gradient, pre_activation_gradient_.data(),
                               batch_ * widths[layer + 1], context_.compute_stream());
    gradient = pre_activation_gradient_.data();
  }
  const float* input = l == 0 ? input_ : outputs_[layer - 1].data();
  float* input_gradient = l == 0 ? nullptr : gradients_of_outputs_[layer - 1].data();
  layers_[layer].backward(context_, input, gradient, batch_, input_gradient);
}

GradientRange MlpModel::stage_gradients(int stage) const {
  const auto& entry = layout_.entry(static_cast<std::size_t>(layer_count - 1 - stage));
  return GradientRange{entry.offset, entry.count};
}

}  // namespace gpuprof::workloads
