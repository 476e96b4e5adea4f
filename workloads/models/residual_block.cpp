#include "residual_block.hpp"

#include <algorithm>

namespace gpuprof::workloads {

ResidualBlock::ResidualBlock(const DeviceContext& context, const ResidualBlockConfig& config,
                             const std::string& name) {
  const int outputs = config.bottleneck ? 4 * config.width : config.width;
  const ConvolutionSearch search = config.choices.convolution;
  auto add = [&](const ImageShape& input, int channels, int kernel, int stride, BatchNormEpilogue epilogue,
                 const std::string& part) {
    units_.push_back(std::make_unique<ConvBnUnit>(context,
                                                  Conv2dConfig{input, channels, kernel, stride, kernel / 2, search},
                                                  epilogue, config.choices.batch_norm, name + "." + part));
    return units_.back()->output_shape();
  };
  if (config.bottleneck) {
    // torchvision's ResNet v1.5: the stride sits on the 3x3 convolution.
    const ImageShape reduced = add(config.input, config.width, 1, 1, BatchNormEpilogue::relu, "conv1");
    const ImageShape spatial = add(reduced, config.width, 3, config.stride, BatchNormEpilogue::relu, "conv2");
    add(spatial, outputs, 1, 1, BatchNormEpilogue::add_relu, "conv3");
  } else {
    const ImageShape first = add(config.input, config.width, 3, config.stride, BatchNormEpilogue::relu, "conv1");
    add(first, outputs, 3, 1, BatchNormEpilogue::add_relu, "conv2");
  }
  if (config.stride != 1 || config.input.channels != outputs) {
    shortcut_ = std::make_unique<ConvBnUnit>(
        context, Conv2dConfig{config.input, outputs, 1, config.stride, 0, search}, BatchNormEpilogue::none,
        config.choices.batch_norm, name + ".shortcut");
  }
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
}

// The shortcut runs first: the last unit's epilogue adds its output.
void ResidualBlock::forward(const DeviceContext& context, const void* input, bool training,
                            const ConvolutionWorkspace& workspace) {
  const void* shortcut = input;
  if (shortcut_) {
    shortcut_->forward(context, input, nullptr, training, workspace);
    shortcut = shortcut_->output();
  }
  const void* current = input;
  for (std::size_t k = 0; k < units_.size(); ++k) {
    const bool last = k + 1 == units_.size();
    units_[k]->forward(context, current, last ? shortcut : nullptr, training, workspace);
    current = units_[k]->output();
  }
}

// dL/dinput = shortcut'(dz) + main'(...), where dz (the gradient at the add) is the last
// unit's residual gradient. dz is written into input_gradient: for an identity shortcut it
// is the shortcut's share already; a projection shortcut reads it and overwrites it with
// its own input gradient. The first unit then adds the main path's share.
void ResidualBlock::backward(const DeviceContext& context, const void* input, void* output_gradient,
                             void* input_gradient, const GradientScratch& scratch,
                             const ConvolutionWorkspace& workspace) {
  const std::size_t last = units_.size() - 1;
  void* gradient = scratch.first;
  units_[last]->backward(context, units_[last - 1]->output(), output_gradient, scratch.norm, gradient, false,
                         input_gradient, workspace);
  if (shortcut_) {
    shortcut_->backward(context, input, input_gradient, scratch.norm, input_gradient, false, nullptr, workspace);
  }
  for (std::size_t k = last; k-- > 0;) {
    const void* unit_input = k == 0 ? input : units_[k - 1]->output();
    void* destination = k == 0 ? input_gradient : (gradient == scratch.first ? scratch.second : scratch.first);
    units_[k]->backward(context, unit_input, gradient, scratch.norm, destination, k == 0, nullptr, workspace);
    gradient = destination;
  }
}

}  // namespace gpuprof::workloads
