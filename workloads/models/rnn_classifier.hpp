#pragma once

#include <cstdint>
#include <vector>

#include "dense_layer.hpp"
#include "device_array.hpp"
#include "device_context.hpp"
#include "flat_parameters.hpp"
#include "loss_functions.hpp"
#include "parameter_layout.hpp"
#include "recurrent_layer.hpp"
#include "trainable_model.hpp"

namespace gpuprof::workloads {

struct RnnClassifierConfig {
  RecurrentConfig recurrent;
  int classes = 2;
};

// Sequence classifier: stacked GRU/LSTM, then a dense layer on the top layer's
// final hidden state, trained with softmax cross-entropy. One instance per GPU.
// Batch rows are SequenceSamples': the sequence as inputs, the class label as the one integer.
class RnnClassifier : public TrainableModel {
 public:
  RnnClassifier(const DeviceContext& context, const RnnClassifierConfig& config);

  const ParameterLayout& layout() const { return layout_; }
  std::size_t parameter_count() const override { return layout_.total(); }
  std::vector<ParameterGroup> parameter_groups() override;
  std::vector<const DeviceContext*> input_contexts() const override { return {&context_}; }
  const DeviceContext& loss_context() const override { return context_; }
  std::vector<std::string> notes() const override { return recurrent_.notes(); }
  std::vector<GraphBinding> graph_bindings() const override { return recurrent_.graph_bindings(); }
  void zero_gradients() override { zero_gradients(context_); }
  void forward_loss(const std::vector<DeviceBatch>& batches, bool training, float loss_scale,
                    LossMetrics metrics) override;
  // Stage 0: the classifier, whose gradients the all-reduce may start on; stage 1: the recurrent stack.
  int backward_stages() const override { return 2; }
  void backward_stage(int stage) override;
  GradientRange stage_gradients(int stage) const override;

  float* parameters() { return parameters_.values(); }
  float* gradients() { return parameters_.gradients(); }
  // The classifier's gradients are ready before the recurrent ones (backward order),
  // which is what lets the all-reduce start early.
  const ParameterLayout::Entry& classifier_entry() const { return layout_.entry(classifier_index_); }
  const ParameterLayout::Entry& recurrent_entry() const { return layout_.entry(recurrent_index_); }

  // Same seed, same weights, on every replica and in every strategy.
  std::vector<float> initial_parameters(std::uint64_t seed) const override;

  void zero_gradients(const DeviceContext& context);
  // Forward pass and loss; also fills the logits' gradient scaled by `loss_scale`.
  void forward_loss(const DeviceContext& context, const float* inputs, const std::int32_t* labels, int batch,
                    bool training, float loss_scale, LossMetrics metrics);
  void backward_classifier(const DeviceContext& context);
  void backward_recurrent(const DeviceContext& context);

  RecurrentLayer& recurrent() { return recurrent_; }
  DenseLayer& classifier() { return classifier_; }

 private:
  const DeviceContext& context_;
  RnnClassifierConfig config_;
  RecurrentLayer recurrent_;
  DenseLayer classifier_;
  ParameterLayout layout_;
  std::size_t recurrent_index_ = 0;
  std::size_t classifier_index_ = 0;
  FlatParameters parameters_;
  DeviceArray<float> logits_;
  DeviceArray<float> logits_gradient_;
  DeviceArray<float> hidden_gradient_;
  const float* last_hidden_ = nullptr;
  int batch_ = 0;
};

}  // namespace gpuprof::workloads
