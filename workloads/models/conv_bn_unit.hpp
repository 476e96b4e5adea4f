#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "batch_norm_layer.hpp"
#include "conv2d_layer.hpp"
#include "device_array.hpp"
#include "element_type.hpp"

namespace gpuprof::workloads {

// One layer's parameters as the model's flat arrays see them.
struct ParameterOwner {
  std::string name;
  std::size_t count = 0;
  std::function<void(ParameterSlice)> bind;
  std::function<void(std::span<float>, DeterministicRandom&)> initialize;
};

// Convolution, batch normalisation and (optionally) ReLU, keeping the activations the
// backward pass needs: the convolution's output and the unit's output, in the input
// shape's element type (as are all the activation pointers below).
class ConvBnUnit {
 public:
  ConvBnUnit(const DeviceContext& context, const Conv2dConfig& config, bool relu, const std::string& name);

  const ImageShape& output_shape() const { return conv_.output_shape(); }  // at the largest batch
  std::size_t workspace_bytes() const { return conv_.workspace_bytes(); }
  void add_owners(std::vector<ParameterOwner>& owners);
  void reset_statistics(const DeviceContext& context) { norm_.reset_statistics(context); }

  void prepare(const DeviceContext& context, int batch, std::size_t workspace_limit);
  void forward(const DeviceContext& context, const void* input, bool training, const ConvolutionWorkspace& workspace);
  void* output() { return output_.data(); }
  // output_gradient (dL/doutput) is overwritten by the ReLU's backward; scratch holds the
  // convolution output's gradient. Writes or (accumulate) adds dL/dinput unless null.
  void backward(const DeviceContext& context, const void* input, void* output_gradient, void* scratch,
                void* input_gradient, bool accumulate, const ConvolutionWorkspace& workspace);

 private:
  std::string name_;
  bool relu_;
  Conv2dLayer conv_;
  BatchNormLayer norm_;
  ActivationBuffer convolved_;
  ActivationBuffer output_;
  long long elements_ = 0;  // of the output at the current batch
};

}  // namespace gpuprof::workloads
