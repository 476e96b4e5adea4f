#include "rnn_classifier.hpp"

#include <span>

#include "deterministic_random.hpp"

namespace gpuprof::workloads {
namespace {
constexpr std::uint64_t initialization_stream = 7;
}

RnnClassifier::RnnClassifier(const DeviceContext& context, const RnnClassifierConfig& config)
    : context_(context), config_(config), recurrent_(context, config.recurrent),
      classifier_(config.recurrent.hidden, config.classes) {
  // The weight space goes first, at offset 0, so cuDNN gets a 256-byte aligned pointer.
  recurrent_index_ = layout_.add("recurrent", recurrent_.parameter_count());
  classifier_index_ = layout_.add("classifier", classifier_.parameter_count());
  parameters_ = FlatParameters(layout_, context.precision() == Precision::bf16);
  recurrent_.bind(parameters_.slice(layout_.entry(recurrent_index_)));
  classifier_.bind(parameters_.slice(layout_.entry(classifier_index_)));
  const auto batch = static_cast<std::size_t>(config.recurrent.max_batch);
  logits_ = DeviceArray<float>(batch * config.classes, "logits");
  logits_gradient_ = DeviceArray<float>(batch * config.classes, "logit gradients");
  hidden_gradient_ = DeviceArray<float>(batch * config.recurrent.hidden, "hidden state gradients");
}

std::vector<float> RnnClassifier::initial_parameters(std::uint64_t seed) const {
  std::vector<float> values(layout_.total(), 0.0F);
  DeterministicRandom random(derive_seed(seed, initialization_stream));
  auto span_of = [&](std::size_t index) {
    const auto& entry = layout_.entry(index);
    return std::span<float>(values.data() + entry.offset, entry.count);
  };
  recurrent_.initialize(span_of(recurrent_index_), random);
  classifier_.initialize(span_of(classifier_index_), random);
  return values;
}

void RnnClassifier::zero_gradients(const DeviceContext& context) {
  parameters_.zero_gradients(context.compute_stream());
}

void RnnClassifier::forward_loss(const DeviceContext& context, const float* inputs,
                                 const std::int32_t* labels, int batch, bool training, float loss_scale,
                                 LossMetrics metrics) {
  batch_ = batch;
  last_hidden_ = recurrent_.forward(context, inputs, batch, training);
  classifier_.forward(context, last_hidden_, batch, logits_.data());
  softmax_cross_entropy(logits_.data(), labels, batch, config_.classes, loss_scale, logits_gradient_.data(),
                        metrics, context.compute_stream());
}

void RnnClassifier::backward_classifier(const DeviceContext& context) {
  classifier_.backward(context, last_hidden_, logits_gradient_.data(), batch_, hidden_gradient_.data());
}

void RnnClassifier::backward_recurrent(const DeviceContext& context) {
  recurrent_.backward(context, hidden_gradient_.data());
}

std::vector<ParameterGroup> RnnClassifier::parameter_groups() {
  return {parameters_.group(context_)};
}

void RnnClassifier::forward_loss(const std::vector<DeviceBatch>& batches, bool training, float loss_scale,
                                 LossMetrics metrics) {
  const DeviceBatch& batch = batches.front();
  context_.make_current();
  forward_loss(context_, batch.inputs, batch.ints, batch.size, training, loss_scale, metrics);
}

void RnnClassifier::backward_stage(int stage) {
  context_.make_current();
  if (stage == 0) {
    backward_classifier(context_);
  } else {
    backward_recurrent(context_);
  }
}

GradientRange RnnClassifier::stage_gradients(int stage) const {
  const auto& entry = stage == 0 ? classifier_entry() : recurrent_entry();
  return GradientRange{entry.offset, entry.count};
}

}  // namespace gpuprof::workloads
