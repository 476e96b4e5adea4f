#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "device_array.hpp"
#include "device_context.hpp"
#include "placement_plan.hpp"

namespace gpuprof::workloads {

// The connection from a layer's output to the layer that reads it. On one GPU it only
// holds the consumer's input-gradient buffer. Across GPUs it copies the activation to the
// consumer's GPU (forward) and the gradient back (backward) with cudaMemcpyPeerAsync on the
// receiving GPU's compute stream, ordered by events rather than host waits, and records
// each copy in `log` so a test can compare what ran with the placement plan.
class LayerLink {
 public:
  struct Ends {
    const DeviceContext* producer = nullptr;
    const DeviceContext* consumer = nullptr;
    std::string producer_name;
    std::string consumer_name;
    bool tower_output = false;
  };

  // Allocates on both GPUs; `floats` is the most the activation will ever hold.
  LayerLink(Ends ends, std::size_t floats, std::vector<PlannedTransfer>* log);
  ~LayerLink();
  LayerLink(const LayerLink&) = delete;
  LayerLink& operator=(const LayerLink&) = delete;

  bool crosses() const { return ends_.producer->device() != ends_.consumer->device(); }
  // After the producer's work is enqueued: where the consumer reads the activation.
  const float* forward(const float* produced, std::size_t floats);
  // Where the consumer writes the gradient of its input (on the consumer's GPU).
  float* consumer_gradient() { return consumer_gradient_.data(); }
  // After the consumer's backward is enqueued: where the producer reads that gradient.
  const float* backward(std::size_t floats);

 private:
  Ends ends_;
  std::vector<PlannedTransfer>* log_;
  DeviceArray<float> received_;           // consumer's GPU, only when crossing
  DeviceArray<float> consumer_gradient_;  // consumer's GPU
  DeviceArray<float> producer_gradient_;  // producer's GPU, only when crossing
  cudaEvent_t produced_ = nullptr;        // recorded on the producer's stream
  cudaEvent_t consumed_ = nullptr;        // recorded on the consumer's stream
};

}  // namespace gpuprof::workloads
