#include "residual_block.hpp"

#include <algorithm>

#include "layer_kernels.hpp"

namespace gpuprof::workloads {

ResidualBlock::ResidualBlock(const DeviceContext& context, const ResidualBlockConfig& config,
                             const std::string& name) {
  const int outputs = config.bottleneck ? 4 * config.width : config.width;
  auto add = [&](const ImageShape& input, int channels, int kernel, int stride, bool relu, const std::string& part) {
    units_.push_back(std::make_unique<ConvBnUnit>(
        context, Conv2dConfig{input, channels, kernel, stride, kernel / 2}, relu, name + "." + part));
    return units_.back()->output_shape();
  };
  if (config.bottleneck) {
    // torchvision's ResNet v1.5: the stride sits on the 3x3 convolution.
    const ImageShape reduced = add(config.input, config.width, 1, 1, true, "conv1");
    const ImageShape spatial = add(reduced, config.width, 3, config.stride, true, "conv2");
    add(spatial, outputs, 1, 1, false, "conv3");
  } else {
    const ImageShape first = add(config.input, config.width, 3, config.stride, true, "conv1");
    add(first, outputs, 3, 1, false, "conv2");
  }
  if (config.stride != 1 || config.input.channels != outputs) {
    shortcut_ = std::make_unique<ConvBnUnit>(context, Conv2dConfig{config.input, outputs, 1, config.stride, 0},
                                             false, name + ".shortcut");
  }
  elements_ = output_shape().elements();
  output_ = ActivationBuffer(config.input.element, static_cast<std::size_t>(elements_), name + " output");
}

std::size_t ResidualBlock::workspace_bytes() const {
  std::size_t bytes = shortcut_ ? shortcut_->workspace_bytes() : 0;
  for (const auto& unit : units_) bytes = std::max(bytes, unit->workspace_bytes());
  return bytes;
}

long long ResidualBlock::largest_activation() const {
  long long largest = 0;
  for (const auto& unit : units_) largest = std::max(largest, unit->output_shape().elements());
  return largest;
}

void ResidualBlock::add_owners(std::vector<ParameterOwner>& owners) {
  for (const auto& unit : units_) unit->add_owners(owners);
  if (shortcut_) shortcut_->add_owners(owners);
}

void ResidualBlock::reset_statistics(const DeviceContext& context) {
  for (const auto& unit : units_) unit->reset_statistics(context);
  if (shortcut_) shortcut_->reset_statistics(context);
}

void ResidualBlock::prepare(const DeviceContext& context, int batch, std::size_t workspace_limit) {
  for (const auto& unit : units_) unit->prepare(context, batch, workspace_limit);
  if (shortcut_) shortcut_->prepare(context, batch, workspace_limit);
  ImageShape shape = output_shape();
  shape.batch = batch;
  elements_ = shape.elements();
}

void ResidualBlock::forward(const DeviceContext& context, const void* input, bool training, const ConvolutionWorkspace& workspace) {
  const void* current = input;
  for (const auto& unit : units_) {
    unit->forward(context, current, training, workspace);
    current = unit->output();
  }
  const void* shortcut = input;
  if (shortcut_) {
    shortcut_->forward(context, input, training, workspace);
    shortcut = shortcut_->output();
  }
  cudaStream_t stream = context.compute_stream();
  const ElementType element = output_.type();
  GPUPROF_CHECK(cudaMemcpyAsync(output_.data(), current, static_cast<std::size_t>(elements_) * element_bytes(element),
                                cudaMemcpyDeviceToDevice, stream));
  launch_add_into(element, output_.data(), shortcut, elements_, stream);
  launch_activation_forward(element, ActivationKind::relu, output_.data(), output_.data(), elements_, stream);
}

void ResidualBlock::backward(const DeviceContext& context, const void* input, void* output_gradient,
                             void* input_gradient, const GradientScratch& scratch,
                             const ConvolutionWorkspace& workspace) {
  const ElementType element = output_.type();
  launch_activation_backward(element, ActivationKind::relu, output_.data(), output_gradient, output_gradient,
                             elements_, context.compute_stream());
  // The last unit has no ReLU, so output_gradient survives it for the shortcut below.
  void* gradient = output_gradient;
  for (std::size_t k = units_.size(); k-- > 0;) {
    const void* unit_input = k == 0 ? input : units_[k - 1]->output();
    void* destination = k == 0 ? input_gradient : (gradient == scratch.first ? scratch.second : scratch.first);
    units_[k]->backward(context, unit_input, gradient, scratch.norm, destination, false, workspace);
    gradient = destination;
  }
  if (shortcut_) {
    shortcut_->backward(context, input, output_gradient, scratch.norm, input_gradient, true, workspace);
  } else {
    launch_add_into(element, input_gradient, output_gradient, elements_, context.compute_stream());
  }
}

}  // namespace gpuprof::workloads
