#include "conv_bn_unit.hpp"

namespace gpuprof::workloads {

ConvBnUnit::ConvBnUnit(const DeviceContext& context, const Conv2dConfig& config, BatchNormEpilogue epilogue,
                       BatchNormImplementation batch_norm, const std::string& name)
    : name_(name), conv_(context, config), norm_(config.outputs, batch_norm, epilogue) {
  const auto elements = static_cast<std::size_t>(conv_.output_shape().elements());
  const ElementType element = config.input.element;
  convolved_ = ActivationBuffer(element, elements, name + " convolution output");
  output_ = ActivationBuffer(element, elements, name + " output");
  norm_.prepare(context, conv_.output_shape());
}

void ConvBnUnit::add_owners(std::vector<ParameterOwner>& owners) {
  owners.push_back({name_ + ".conv", conv_.parameter_count(), [this](ParameterSlice s) { conv_.bind(s); },
                    [this](std::span<float> v, DeterministicRandom& r) { conv_.initialize(v, r); }});
  owners.push_back({name_ + ".bn", norm_.parameter_count(), [this](ParameterSlice s) { norm_.bind(s); },
                    [this](std::span<float> v, DeterministicRandom& r) { norm_.initialize(v, r); }});
}

void ConvBnUnit::prepare(const DeviceContext& context, int batch, std::size_t workspace_limit) {
  conv_.prepare(context, batch, workspace_limit);
  norm_.prepare(context, conv_.output_shape(batch));
}

void ConvBnUnit::forward(const DeviceContext& context, const void* input, const void* residual, bool training,
                         const ConvolutionWorkspace& workspace) {
  conv_.forward(context, input, convolved_.data(), workspace);
  norm_.forward(context, convolved_.data(), residual, output_.data(), training);
}

void ConvBnUnit::backward(const DeviceContext& context, const void* input, void* output_gradient, void* scratch,
                          void* input_gradient, bool accumulate, void* residual_gradient,
                          const ConvolutionWorkspace& workspace) {
  norm_.backward(context, convolved_.data(), output_.data(), output_gradient, scratch, residual_gradient);
  conv_.backward(context, input, scratch, input_gradient, accumulate, workspace);
}

}  // namespace gpuprof::workloads
