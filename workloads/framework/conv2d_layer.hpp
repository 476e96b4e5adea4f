#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <span>

#include "cudnn_descriptors.hpp"
#include "convolution_cache.hpp"
#include "deterministic_random.hpp"
#include "device_context.hpp"
#include "layer_choices.hpp"
#include "parameter_layout.hpp"

namespace gpuprof::workloads {

struct Conv2dConfig {
  ImageShape input;  // batch = the largest batch the layer will see
  int outputs = 0;
  int kernel = 1;
  int stride = 1;
  int padding = 0;
  ConvolutionSearch search = ConvolutionSearch::measured;
};

class ConvolutionGraph;

// A 2-D convolution without bias (batch normalisation follows it) on cuDNN, in either
// layout. With ConvolutionSearch::graph each pass runs the fastest of a few plans of cuDNN's
// graph API timed for this shape (convolution_graph.hpp; where the graph API refuses, the
// measured path below). Each pass's algorithm is, with ConvolutionSearch::measured, the fastest of the
// candidates cuDNN's find timed for this shape (timed once per shape, layout, precision and
// GPU model in the process, see convolution_cache.hpp) whose workspace fits; with
// ConvolutionSearch::heuristic (or where the find fails) the first of cuDNN's _v7
// heuristics whose workspace fits. The chosen math type is set on that pass's own
// descriptor and the workspace size asked of cuDNN for that algorithm and math type; the
// workspace itself is shared by the model's layers and passed in at each call. fp32
// restricts cuDNN to FMA math, tf32 allows tensor cores, bf16 (input of element type bf16)
// runs bf16 tensor-core kernels on the bf16 copy of the filters.
// The convolution workspace shared by a model's layers, and its size: cuDNN is told
// the whole size at each call (a smaller figure than an algorithm needs fails it).
struct ConvolutionWorkspace {
  void* data = nullptr;
  std::size_t bytes = 0;
};

class Conv2dLayer {
 public:
  Conv2dLayer(const DeviceContext& context, const Conv2dConfig& config);
  ~Conv2dLayer();
  Conv2dLayer(const Conv2dLayer&) = delete;
  Conv2dLayer& operator=(const Conv2dLayer&) = delete;

  std::size_t parameter_count() const;
  void bind(ParameterSlice slice) { parameters_ = slice; }
  // He (Kaiming) normal with fan-out, torchvision's ResNet initialisation.
  void initialize(std::span<float> values, DeterministicRandom& random) const;

  const ImageShape& output_shape() const { return output_; }  // at the largest batch
  ImageShape output_shape(int batch) const;
  // Whether the passes run cuDNN graph API plans (--conv-algo graph, not refused).
  bool runs_graph_plans() const { return graph_ != nullptr; }
  // The most workspace any of the three passes needs at the largest batch.
  std::size_t workspace_bytes() const { return workspace_bytes_; }

  // Sets the batch of the following calls; re-picks algorithms that fit `workspace_limit`.
  void prepare(const DeviceContext& context, int batch, std::size_t workspace_limit);
  // Activations and their gradients are of the input shape's element type.
  void forward(const DeviceContext& context, const void* input, void* output,
               const ConvolutionWorkspace& workspace) const;
  // Writes dL/dW (beta 0: each layer runs once per step on gradients zeroed before it, and
  // cuDNN scales a beta-1 output in a pass of its own). Writes dL/dinput (or adds it when
  // accumulate is true) unless input_gradient is null.
  void backward(const DeviceContext& context, const void* input, const void* output_gradient,
                void* input_gradient, bool accumulate, const ConvolutionWorkspace& workspace) const;

 private:
  void choose_algorithms(const DeviceContext& context, std::size_t workspace_limit);
  bool choose_graph(cudnnHandle_t handle, std::size_t workspace_limit);
  bool choose_measured(cudnnHandle_t handle, std::size_t workspace_limit);
  void choose_heuristic(cudnnHandle_t handle, std::size_t workspace_limit);
  ConvolutionMeasurement measure(cudnnHandle_t handle);
  ConvolutionKey key() const;
  void require_workspace(const ConvolutionWorkspace& workspace) const;
  // The workspace of an algorithm with a math type (set on the pass's descriptor), or nullopt where cuDNN refuses.
  std::optional<std::size_t> forward_workspace(cudnnHandle_t handle, cudnnConvolutionFwdAlgo_t algorithm,
                                               cudnnMathType_t math);
  std::optional<std::size_t> data_workspace(cudnnHandle_t handle, cudnnConvolutionBwdDataAlgo_t algorithm,
                                            cudnnMathType_t math);
  std::optional<std::size_t> filter_workspace(cudnnHandle_t handle, cudnnConvolutionBwdFilterAlgo_t algorithm,
                                              cudnnMathType_t math);
  void apply(const ConvolutionChoice<cudnnConvolutionFwdAlgo_t>& choice);
  void apply(const ConvolutionChoice<cudnnConvolutionBwdDataAlgo_t>& choice);
  void apply(const ConvolutionChoice<cudnnConvolutionBwdFilterAlgo_t>& choice);
  bool bf16() const { return config_.input.element == ElementType::bf16; }
  const void* filters() const;

  Conv2dConfig config_;
  cudnnMathType_t requested_math_;  // what the precision allows; the heuristics and the find are asked with it
  std::string gpu_;                 // the GPU model, part of the measurement's key
  ImageShape output_;
  int batch_ = 0;
  ParameterSlice parameters_;
  TensorDescriptor input_descriptor_;
  TensorDescriptor output_descriptor_;
  FilterDescriptor filter_descriptor_;
  // One per pass: each carries the math type of the algorithm chosen for its pass.
  ConvolutionDescriptor forward_convolution_;
  ConvolutionDescriptor data_convolution_;
  ConvolutionDescriptor filter_convolution_;
  cudnnConvolutionFwdAlgo_t forward_algorithm_{};
  cudnnConvolutionBwdDataAlgo_t data_algorithm_{};
  cudnnConvolutionBwdFilterAlgo_t filter_algorithm_{};
  std::size_t forward_workspace_ = 0;
  std::size_t data_workspace_ = 0;
  std::size_t filter_workspace_ = 0;
  std::size_t workspace_bytes_ = 0;
  std::unique_ptr<ConvolutionGraph> graph_;  // set while the passes run through the graph API
};

}  // namespace gpuprof::workloads
