#pragma once

#include <memory>
#include <string>
#include <vector>

#include "conv1d_layer.hpp"
#include "dense_layer.hpp"
#include "device_array.hpp"
#include "embedding_layer.hpp"
#include "layer_link.hpp"

namespace gpuprof::workloads {

struct TowerShape {
  int vocab = 0;
  int length = 0;   // tokens per document
  int width = 0;    // embedding width
  int filters = 0;
  int kernel = 0;
  int outputs = 64;
};

// The GPU of each of the tower's layers, as the placement plan says.
struct TowerPlacement {
  const DeviceContext* embedding = nullptr;
  const DeviceContext* conv = nullptr;
  const DeviceContext* pool = nullptr;
  const DeviceContext* dense = nullptr;
};

// One DeepCoNN tower: token embedding, 1-D convolution with tanh, max over time,
// dense with ReLU. Each layer runs on its own placed GPU; LayerLinks move activations
// and gradients between layers that the plan put on different GPUs.
class TextTower {
 public:
  TextTower(const std::string& name, const TowerShape& shape, const TowerPlacement& placement, int max_batch,
            std::vector<PlannedTransfer>* log);

  EmbeddingLayer& embedding() { return embedding_; }
  Conv1dLayer& conv() { return *conv_; }
  DenseLayer& dense() { return dense_; }
  const TowerPlacement& placement() const { return placement_; }

  // `tokens` are on the embedding layer's GPU.
  void forward(const std::int32_t* tokens, TokenSpan span, int batch);
  // The tower's output [batch][outputs], on the dense layer's GPU.
  const float* output() const { return dense_output_.data(); }
  // dL/doutput on the dense layer's GPU; adds every layer's parameter gradients.
  void backward(const float* output_gradient, int batch);

 private:
  std::string name_;
  TowerShape shape_;
  TowerPlacement placement_;
  EmbeddingLayer embedding_;
  std::unique_ptr<Conv1dLayer> conv_;
  DenseLayer dense_;
  DeviceArray<float> embedded_;         // embedding GPU [batch][length][width]
  DeviceArray<float> convolved_;        // conv GPU [batch][positions][filters], after tanh
  DeviceArray<float> convolved_gradient_;
  DeviceArray<float> pooled_;           // pool GPU [batch][filters]
  DeviceArray<std::int32_t> argmax_;
  DeviceArray<float> dense_output_;     // dense GPU [batch][outputs], after ReLU
  DeviceArray<float> dense_gradient_;
  std::unique_ptr<LayerLink> embedding_to_conv_;
  std::unique_ptr<LayerLink> conv_to_pool_;
  std::unique_ptr<LayerLink> pool_to_dense_;
  const std::int32_t* tokens_ = nullptr;
  TokenSpan span_;
  const float* conv_input_ = nullptr;
  const float* pool_input_ = nullptr;
  const float* dense_input_ = nullptr;
};

}  // namespace gpuprof::workloads
