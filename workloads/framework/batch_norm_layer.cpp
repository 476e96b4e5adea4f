#include "batch_norm_layer.hpp"

#include <vector>

#include "cuda_check.hpp"

namespace gpuprof::workloads {
namespace {
constexpr double epsilon = 1e-5;
constexpr double momentum = 0.1;  // weight of the new batch in the running statistics
constexpr cudnnBatchNormMode_t mode = CUDNN_BATCHNORM_SPATIAL;
}  // namespace

BatchNormLayer::BatchNormLayer(int channels)
    : channels_(channels),
      running_mean_(static_cast<std::size_t>(channels), "batch norm running mean"),
      running_variance_(static_cast<std::size_t>(channels), "batch norm running variance"),
      saved_mean_(static_cast<std::size_t>(channels), "batch norm batch mean"),
      saved_inverse_deviation_(static_cast<std::size_t>(channels), "batch norm batch inverse deviation") {}

void BatchNormLayer::initialize(std::span<float> values, DeterministicRandom& /*random*/) const {
  const auto channels = static_cast<std::size_t>(channels_);
  for (std::size_t c = 0; c < values.size(); ++c) values[c] = c < channels ? 1.0F : 0.0F;
}

void BatchNormLayer::reset_statistics(const DeviceContext& context) {
  const std::vector<float> ones(static_cast<std::size_t>(channels_), 1.0F);
  running_mean_.zero(context.compute_stream());
  running_variance_.upload(ones.data(), ones.size(), context.compute_stream());
  context.synchronize();  // `ones` is pageable host memory that must outlive the copy
}

void BatchNormLayer::prepare(const ImageShape& shape) {
  if (shape.batch == shape_.batch && shape.height == shape_.height && shape.width == shape_.width &&
      shape.channels == shape_.channels && shape.channels_last == shape_.channels_last &&
      shape.element == shape_.element) {
    return;
  }
  shape_ = shape;
  data_descriptor_.set(shape);
  // Scale, shift and statistics are fp32 whatever the activations are (1 x C x 1 x 1 for spatial
  // mode): set explicitly rather than derived, since derivation follows the data type.
  GPUPROF_CHECK(cudnnSetTensor4dDescriptor(statistics_descriptor_.get(), CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1,
                                           channels_, 1, 1));
}

void BatchNormLayer::forward(const DeviceContext& context, const void* input, void* output, bool training) {
  const float one = 1.0F;
  const float zero = 0.0F;
  const float* scale = parameters_.values;
  const float* shift = parameters_.values + channels_;
  if (training) {
    GPUPROF_CHECK(cudnnBatchNormalizationForwardTraining(
        context.cudnn(), mode, &one, &zero, data_descriptor_.get(), input, data_descriptor_.get(), output,
        statistics_descriptor_.get(), scale, shift, momentum, running_mean_.data(), running_variance_.data(),
        epsilon, saved_mean_.data(), saved_inverse_deviation_.data()));
  } else {
    GPUPROF_CHECK(cudnnBatchNormalizationForwardInference(
        context.cudnn(), mode, &one, &zero, data_descriptor_.get(), input, data_descriptor_.get(), output,
        statistics_descriptor_.get(), scale, shift, running_mean_.data(), running_variance_.data(), epsilon));
  }
}

void BatchNormLayer::backward(const DeviceContext& context, const void* input, const void* output_gradient,
                              void* input_gradient) const {
  const float one = 1.0F;
  const float zero = 0.0F;
  GPUPROF_CHECK(cudnnBatchNormalizationBackward(
      context.cudnn(), mode, &one, &zero, &one, &one, data_descriptor_.get(), input, data_descriptor_.get(),
      output_gradient, data_descriptor_.get(), input_gradient, statistics_descriptor_.get(), parameters_.values,
      parameters_.gradients, parameters_.gradients + channels_, epsilon, saved_mean_.data(),
      saved_inverse_deviation_.data()));
}

}  // namespace gpuprof::workloads
