#pragma once

#include <span>

#include "cudnn_descriptors.hpp"
#include "deterministic_random.hpp"
#include "device_array.hpp"
#include "device_context.hpp"
#include "parameter_layout.hpp"

namespace gpuprof::workloads {

// Spatial batch normalisation with cuDNN (either layout). Training mode
// normalises with the batch's statistics and updates running mean and variance
// (momentum 0.1, as PyTorch); evaluation uses the running statistics. Parameters are
// [scale: channels][shift: channels]; running statistics are state, not parameters,
// so they are neither optimised nor all-reduced (each replica keeps its own).
class BatchNormLayer {
 public:
  // Allocates the running and saved statistics on the current device.
  explicit BatchNormLayer(int channels);

  std::size_t parameter_count() const { return 2 * static_cast<std::size_t>(channels_); }
  void bind(ParameterSlice slice) { parameters_ = slice; }
  // Scale 1, shift 0.
  void initialize(std::span<float> values, DeterministicRandom& random) const;
  // Running mean 0, running variance 1 (on the compute stream).
  void reset_statistics(const DeviceContext& context);

  void prepare(const ImageShape& shape);
  // Activations of the prepared shape's element type; scale, shift and statistics stay fp32.
  void forward(const DeviceContext& context, const void* input, void* output, bool training);
  // Adds dL/dscale and dL/dshift; writes dL/dinput. Uses the batch statistics of the last training forward.
  void backward(const DeviceContext& context, const void* input, const void* output_gradient,
                void* input_gradient) const;

  const float* running_mean() const { return running_mean_.data(); }
  const float* running_variance() const { return running_variance_.data(); }

 private:
  int channels_;
  ParameterSlice parameters_;
  TensorDescriptor data_descriptor_;
  TensorDescriptor statistics_descriptor_;
  ImageShape shape_;
  DeviceArray<float> running_mean_;
  DeviceArray<float> running_variance_;
  DeviceArray<float> saved_mean_;
  DeviceArray<float> saved_inverse_deviation_;
};

}  // namespace gpuprof::workloads
