#pragma once

#include <cudnn.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "cudnn_descriptors.hpp"
#include "graph_engine_choice.hpp"
#include "tensor_layout.hpp"

namespace gpuprof::workloads {

// An owning cuDNN backend (graph API) descriptor. Move-only.
class BackendDescriptor {
 public:
  explicit BackendDescriptor(cudnnBackendDescriptorType_t type);
  ~BackendDescriptor();
  BackendDescriptor(BackendDescriptor&& other) noexcept;
  BackendDescriptor& operator=(BackendDescriptor&& other) noexcept;
  BackendDescriptor(const BackendDescriptor&) = delete;
  BackendDescriptor& operator=(const BackendDescriptor&) = delete;

  cudnnBackendDescriptor_t get() const { return descriptor_; }
  // `what` names the attribute in the error a refusal throws.
  void set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, std::int64_t count,
           const void* values, const char* what);
  void set(cudnnBackendAttributeName_t name, const BackendDescriptor& value, const char* what);
  void finalize(const char* what);

 private:
  cudnnBackendDescriptor_t descriptor_ = nullptr;
};

// The shape of one 2-D convolution (no bias, dilation 1, cross-correlation, fp32 accumulation).
struct ConvolutionGeometry {
  ImageShape input;
  ImageShape output;
  int kernel = 1;
  int stride = 1;
  int padding = 0;
};

// The unique ids of the graph's tensors in every variant pack.
enum GraphTensor : std::int64_t { graph_input = 1, graph_filter = 2, graph_output = 3 };

// The tensors and the operations of one convolution's passes, finalized: built without a
// GPU (cuDNN checks them on the host), so their layouts are tested on CPU. The data
// gradient has a second operation that adds into its destination (beta 1) for the residual
// blocks whose input gradient is the sum of two branches.
class ConvolutionOperations {
 public:
  explicit ConvolutionOperations(const ConvolutionGeometry& geometry);
  const BackendDescriptor& operation(ConvolutionPass pass, bool accumulate = false) const;
  // The dimensions and strides cuDNN holds for a tensor of the graph.
  StridedShape layout_of(GraphTensor tensor) const;

 private:
  BackendDescriptor input_;
  BackendDescriptor filter_;
  BackendDescriptor output_;
  BackendDescriptor convolution_;
  BackendDescriptor forward_;
  BackendDescriptor data_;
  BackendDescriptor data_accumulate_;
  BackendDescriptor filter_gradient_;
};

// One pass's operation graph with the engine configurations cuDNN's heuristics offered
// (mode A, then the fallback list) and the plan chosen among them.
struct GraphPass {
  std::optional<BackendDescriptor> graph;
  std::vector<BackendDescriptor> configurations;
  std::vector<GraphEngine> engines;  // one per configuration, same order
  std::optional<BackendDescriptor> plan;
  std::size_t workspace_bytes = 0;
};

// A convolution's three passes through cuDNN's graph API (--conv-algo graph): heuristics,
// a few plans timed once, the fastest that fits the workspace kept. Any refusal throws
// WorkloadError naming the call; the layer then takes the measured path.
class ConvolutionGraph {
 public:
  ConvolutionGraph(cudnnHandle_t handle, const ConvolutionGeometry& geometry);

  // Times up to `engines_per_pass` engines of each pass (engines_to_time) whose plans
  // finalize within `limit`, each once after an untimed run, on scratch buffers.
  GraphMeasurement measure(cudnnHandle_t handle, cudnnMathType_t requested, std::size_t limit,
                           std::size_t engines_per_pass);
  // Finalizes each pass's fastest fitting plan of `measurement`; false where a pass has none.
  bool choose(cudnnHandle_t handle, const GraphMeasurement& measurement, cudnnMathType_t requested,
              std::size_t limit);
  std::size_t workspace_bytes(ConvolutionPass pass) const;

  void forward(cudnnHandle_t handle, const void* input, const void* filters, void* output, void* workspace) const;
  void backward_data(cudnnHandle_t handle, const void* filters, const void* output_gradient, void* input_gradient,
                     bool accumulate, void* workspace) const;
  void backward_filter(cudnnHandle_t handle, const void* input, const void* output_gradient, void* filter_gradient,
                       void* workspace) const;

 private:
  GraphPass& pass(ConvolutionPass which) { return passes_[static_cast<std::size_t>(which)]; }
  const GraphPass& pass(ConvolutionPass which) const { return passes_[static_cast<std::size_t>(which)]; }
  void execute(cudnnHandle_t handle, const GraphPass& pass, const std::array<void*, 3>& pointers,
               void* workspace) const;
  bool choose_accumulating(cudnnHandle_t handle, std::int64_t engine, cudnnMathType_t requested, std::size_t limit);

  ConvolutionGeometry geometry_;
  ConvolutionOperations operations_;
  std::array<GraphPass, 3> passes_;  // forward, data, filter
  GraphPass data_accumulate_;
};

}  // namespace gpuprof::workloads
