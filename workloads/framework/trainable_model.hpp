#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda_graph_plan.hpp"
#include "device_batch.hpp"
#include "device_context.hpp"
#include "loss_functions.hpp"

namespace gpuprof::workloads {

// Parameters and gradients that live on one GPU, as one flat pair of arrays, so
// the optimizer, the all-reduce and host-staged copies treat them as one buffer.
// With bf16 precision, bf16_values is the copy that bf16 layers compute with; whoever
// changes `values` refreshes it (refresh_bf16_copy).
struct ParameterGroup {
  const DeviceContext* context = nullptr;
  float* values = nullptr;
  float* gradients = nullptr;
  std::size_t count = 0;
  void* bf16_values = nullptr;
};

// Floats [offset, offset + count) of a model's first parameter group.
struct GradientRange {
  std::size_t offset = 0;
  std::size_t count = 0;
};

// What the trainer needs from a model. A replicated model has one parameter group
// on its GPU; a model placed across GPUs has one group per GPU that holds parameters.
class TrainableModel {
 public:
  virtual ~TrainableModel() = default;

  virtual std::size_t parameter_count() const = 0;
  virtual std::vector<ParameterGroup> parameter_groups() = 0;
  // All groups' initial values, concatenated in group order. Same seed, same weights in every strategy.
  virtual std::vector<float> initial_parameters(std::uint64_t seed) const = 0;
  // The GPUs that read the batch; forward_loss gets one copy of the batch per entry, in this order.
  virtual std::vector<const DeviceContext*> input_contexts() const = 0;
  // Where the loss (and so the metrics array) is computed.
  virtual const DeviceContext& loss_context() const = 0;
  // Lines worth telling the user once (e.g. peer-to-peer copies that go through the host).
  virtual std::vector<std::string> notes() const { return {}; }
  // Buffers a captured training step bakes in that the model may replace later (a workspace
  // reallocated by a fallback): if one moves, the step's CUDA graph is captured again.
  virtual std::vector<GraphBinding> graph_bindings() const { return {}; }

  virtual void zero_gradients() = 0;
  // Forward pass and loss; also fills the loss gradient, scaled by `loss_scale`.
  virtual void forward_loss(const std::vector<DeviceBatch>& batches, bool training, float loss_scale,
                            LossMetrics metrics) = 0;
  // The backward pass in stages, last layers first; after stage s, stage_gradients(s)
  // of the first group are final, which lets a data-parallel all-reduce start early.
  virtual int backward_stages() const { return 1; }
  virtual void backward_stage(int stage) = 0;
  virtual GradientRange stage_gradients(int stage) const = 0;
};

}  // namespace gpuprof::workloads
