#include "pooling_layer.hpp"

#include "cuda_check.hpp"

namespace gpuprof::workloads {

PoolingLayer::PoolingLayer(const PoolingConfig& config) : config_(config) {
  descriptor_.set(config.mode, config.window, config.padding, config.stride);
}

PoolingConfig global_average_pooling(int height) {
  return PoolingConfig{CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, height, 0, 1};
}

ImageShape PoolingLayer::output_shape(const ImageShape& input) const {
  const auto size = [&](int extent) { return (extent + 2 * config_.padding - config_.window) / config_.stride + 1; };
  return ImageShape{input.batch,    size(input.height),  size(input.width),
                    input.channels, input.channels_last, input.element};
}

ImageShape PoolingLayer::prepare(const ImageShape& input) {
  const ImageShape output = output_shape(input);
  input_descriptor_.set(input);
  output_descriptor_.set(output);
  return output;
}

void PoolingLayer::forward(const DeviceContext& context, const void* input, void* output) const {
  const float one = 1.0F;
  const float zero = 0.0F;
  GPUPROF_CHECK(cudnnPoolingForward(context.cudnn(), descriptor_.get(), &one, input_descriptor_.get(), input, &zero,
                                    output_descriptor_.get(), output));
}

void PoolingLayer::backward(const DeviceContext& context, const void* input, const void* output,
                            const void* output_gradient, void* input_gradient) const {
  const float one = 1.0F;
  const float zero = 0.0F;
  GPUPROF_CHECK(cudnnPoolingBackward(context.cudnn(), descriptor_.get(), &one, output_descriptor_.get(), output,
                                     output_descriptor_.get(), output_gradient, input_descriptor_.get(), input,
                                     &zero, input_descriptor_.get(), input_gradient));
}

}  // namespace gpuprof::workloads
