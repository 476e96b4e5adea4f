#pragma once

#include <cstdint>
#include <vector>

#include "dense_layer.hpp"
#include "device_array.hpp"
#include "device_context.hpp"
#include "loss_functions.hpp"
#include "parameter_layout.hpp"
#include "recurrent_layer.hpp"

namespace gpuprof::workloads {

struct RnnClassifierConfig {
  RecurrentConfig recurrent;
  int classes = 2;
};

// Sequence classifier: stacked GRU/LSTM, then a dense layer on the top layer's
// final hidden state, trained with softmax cross-entropy. One instance per GPU.
class RnnClassifier {
 public:
  RnnClassifier(const DeviceContext& context, const RnnClassifierConfig& config);

  const ParameterLayout& layout() const { return layout_; }
  std::size_t parameter_count() const { return layout_.total(); }
  float* parameters() { return parameters_.data(); }
  float* gradients() { return gradients_.data(); }
  // The classifier's gradients are ready before the recurrent ones (backward order),
  // which is what lets the all-reduce start early.
  const ParameterLayout::Entry& classifier_entry() const { return layout_.entry(classifier_index_); }
  const ParameterLayout::Entry& recurrent_entry() const { return layout_.entry(recurrent_index_); }

  // Same seed, same weights, on every replica and in every strategy.
  std::vector<float> initial_parameters(std::uint64_t seed) const;

  void zero_gradients(const DeviceContext& context);
  // Forward pass and loss; also fills the logits' gradient scaled by `loss_scale`.
  void forward_loss(const DeviceContext& context, const float* inputs, const std::int32_t* labels, int batch,
                    bool training, float loss_scale, LossMetrics metrics);
  void backward_classifier(const DeviceContext& context);
  void backward_recurrent(const DeviceContext& context);

  RecurrentLayer& recurrent() { return recurrent_; }
  DenseLayer& classifier() { return classifier_; }

 private:
  RnnClassifierConfig config_;
  RecurrentLayer recurrent_;
  DenseLayer classifier_;
  ParameterLayout layout_;
  std::size_t recurrent_index_ = 0;
  std::size_t classifier_index_ = 0;
  DeviceArray<float> parameters_;
  DeviceArray<float> gradients_;
  DeviceArray<float> logits_;
  DeviceArray<float> logits_gradient_;
  DeviceArray<float> hidden_gradient_;
  const float* last_hidden_ = nullptr;
  int batch_ = 0;
};

}  // namespace gpuprof::workloads
