#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "batch_norm_layer.hpp"
#include "conv2d_layer.hpp"
#include "device_array.hpp"
#include "element_type.hpp"
#include "layer_choices.hpp"

namespace gpuprof::workloads {

// One layer's parameters as the model's flat arrays see them.
struct ParameterOwner {
  std::string name;
  std::size_t count = 0;
  std::function<void(ParameterSlice)> bind;
  std::function<void(std::span<float>, DeterministicRandom&)> initialize;
};

// Convolution, batch normalisation and its epilogue (nothing, ReLU, or the residual add and
// ReLU that end a residual block), keeping the activations the backward pass needs: the
// convolution's output and the unit's output, in the input shape's element type (as are all
// the activation pointers below). The epilogue is fused into cuDNN's batch norm where the
// path allows (see batch_norm_path.hpp), else one pass of our own kernel.
class ConvBnUnit {
 public:
  ConvBnUnit(const DeviceContext& context, const Conv2dConfig& config, BatchNormEpilogue epilogue,
             BatchNormImplementation batch_norm, const std::string& name);

  const ImageShape& output_shape() const { return conv_.output_shape(); }  // at the largest batch
  std::size_t workspace_bytes() const { return conv_.workspace_bytes(); }
  const BatchNormPath& batch_norm_path() const { return norm_.path(); }
  void add_owners(std::vector<ParameterOwner>& owners);
  void reset_statistics(const DeviceContext& context) { norm_.reset_statistics(context); }

  void prepare(const DeviceContext& context, int batch, std::size_t workspace_limit);
  // residual: what add_relu adds before its ReLU (null otherwise).
  void forward(const DeviceContext& context, const void* input, const void* residual, bool training,
               const ConvolutionWorkspace& workspace);
  void* output() { return output_.data(); }
  const void* output() const { return output_.data(); }
  // output_gradient (dL/doutput) may be overwritten; scratch holds the convolution output's
  // gradient. Writes dL/dresidual into residual_gradient (add_relu only). Writes or
  // (accumulate) adds dL/dinput unless input_gradient is null.
  void backward(const DeviceContext& context, const void* input, void* output_gradient, void* scratch,
                void* input_gradient, bool accumulate, void* residual_gradient,
                const ConvolutionWorkspace& workspace);

 private:
  std::string name_;
  Conv2dLayer conv_;
  BatchNormLayer norm_;
  ActivationBuffer convolved_;
  ActivationBuffer output_;
};

}  // namespace gpuprof::workloads
