#pragma once

#include <memory>
#include <string>
#include <vector>

#include "conv_bn_unit.hpp"

namespace gpuprof::workloads {

struct ResidualBlockConfig {
  ImageShape input;    // batch = the largest batch
  int width = 64;      // channels inside the block
  int stride = 1;
  bool bottleneck = false;  // 1x1, 3x3, 1x1 (4 x width out) instead of 3x3, 3x3 (width out)
  LayerChoices choices;
};

// Buffers every block shares, each as large as the largest activation: two for the
// gradient passed between units and one for batch normalisation's input gradient.
// Of the activations' element type.
struct GradientScratch {
  void* first = nullptr;
  void* second = nullptr;
  void* norm = nullptr;
};

// A ResNet block: out = ReLU(main(x) + shortcut(x)); the shortcut is x itself, or a
// strided 1x1 convolution with batch normalisation where the shape changes. The add and
// ReLU are the last unit's batch-norm epilogue, so the block's output is that unit's output
// and no pass copies it; backward, that epilogue's residual gradient is written straight
// into dL/dinput, where the main path's gradient is then added by the first convolution.
class ResidualBlock {
 public:
  ResidualBlock(const DeviceContext& context, const ResidualBlockConfig& config, const std::string& name);

  const ImageShape& output_shape() const { return units_.back()->output_shape(); }
  std::size_t workspace_bytes() const;
  long long largest_activation() const;
  void add_owners(std::vector<ParameterOwner>& owners);
  void reset_statistics(const DeviceContext& context);

  void prepare(const DeviceContext& context, int batch, std::size_t workspace_limit);
  // Activations of the input shape's element type.
  void forward(const DeviceContext& context, const void* input, bool training, const ConvolutionWorkspace& workspace);
  const void* output() const { return units_.back()->output(); }
  // output_gradient may be overwritten; writes dL/dinput.
  void backward(const DeviceContext& context, const void* input, void* output_gradient, void* input_gradient,
                const GradientScratch& scratch, const ConvolutionWorkspace& workspace);

 private:
  std::vector<std::unique_ptr<ConvBnUnit>> units_;
  std::unique_ptr<ConvBnUnit> shortcut_;
};

}  // namespace gpuprof::workloads
