#include "conv_bn_unit.hpp"

#include "layer_kernels.hpp"

namespace gpuprof::workloads {

ConvBnUnit::ConvBnUnit(const DeviceContext& context, const Conv2dConfig& config, bool relu, const std::string& name)
    : name_(name), relu_(relu), conv_(context, config), norm_(config.outputs) {
  const auto elements = static_cast<std::size_t>(conv_.output_shape().elements());
  const ElementType element = config.input.element;
  convolved_ = ActivationBuffer(element, elements, name + " convolution output");
  output_ = ActivationBuffer(element, elements, name + " output");
  elements_ = conv_.output_shape().elements();
  norm_.prepare(conv_.output_shape());
}

void ConvBnUnit::add_owners(std::vector<ParameterOwner>& owners) {
  owners.push_back({name_ + ".conv", conv_.parameter_count(), [this](ParameterSlice s) { conv_.bind(s); },
                    [this](std::span<float> v, DeterministicRandom& r) { conv_.initialize(v, r); }});
  owners.push_back({name_ + ".bn", norm_.parameter_count(), [this](ParameterSlice s) { norm_.bind(s); },
                    [this](std::span<float> v, DeterministicRandom& r) { norm_.initialize(v, r); }});
}

void ConvBnUnit::prepare(const DeviceContext& context, int batch, std::size_t workspace_limit) {
  conv_.prepare(context, batch, workspace_limit);
  const ImageShape shape = conv_.output_shape(batch);
  norm_.prepare(shape);
  elements_ = shape.elements();
}

void ConvBnUnit::forward(const DeviceContext& context, const void* input, bool training, const ConvolutionWorkspace& workspace) {
  conv_.forward(context, input, convolved_.data(), workspace);
  norm_.forward(context, convolved_.data(), output_.data(), training);
  if (relu_) {
    launch_activation_forward(output_.type(), ActivationKind::relu, output_.data(), output_.data(), elements_,
                              context.compute_stream());
  }
}

void ConvBnUnit::backward(const DeviceContext& context, const void* input, void* output_gradient, void* scratch,
                          void* input_gradient, bool accumulate,
                          const ConvolutionWorkspace& workspace) {
  if (relu_) {
    launch_activation_backward(output_.type(), ActivationKind::relu, output_.data(), output_gradient,
                               output_gradient, elements_, context.compute_stream());
  }
  norm_.backward(context, convolved_.data(), output_gradient, scratch);
  conv_.backward(context, input, scratch, input_gradient, accumulate, workspace);
}

}  // namespace gpuprof::workloads
