#pragma once

#include <cstddef>
#include <span>

#include "batch_norm_path.hpp"
#include "cudnn_descriptors.hpp"
#include "deterministic_random.hpp"
#include "device_array.hpp"
#include "device_context.hpp"
#include "parameter_layout.hpp"

namespace gpuprof::workloads {

// Spatial batch normalisation with cuDNN (either layout), followed by its epilogue (a ReLU,
// or the residual add and a ReLU). Training mode normalises with the batch's statistics and
// updates running mean and variance (momentum 0.1, as PyTorch); evaluation uses the running
// statistics. Parameters are [scale: channels][shift: channels]; running statistics are
// state, not parameters, so they are neither optimised nor all-reduced (each replica keeps
// its own). The training path comes from choose_batch_norm_path; where cuDNN refuses it
// (CUDNN_STATUS_NOT_SUPPORTED) the layer steps down along fallback_after and says so once
// in the run's output. What cuDNN does not fuse runs as our own elementwise kernel.
class BatchNormLayer {
 public:
  // Allocates the running and saved statistics on the current device.
  explicit BatchNormLayer(int channels, BatchNormImplementation implementation = BatchNormImplementation::fused,
                          BatchNormEpilogue epilogue = BatchNormEpilogue::none);

  std::size_t parameter_count() const { return 2 * static_cast<std::size_t>(channels_); }
  void bind(ParameterSlice slice) { parameters_ = slice; }
  // Scale 1, shift 0.
  void initialize(std::span<float> values, DeterministicRandom& random) const;
  // Running mean 0, running variance 1 (on the compute stream).
  void reset_statistics(const DeviceContext& context);

  // Settles the training path for this shape and sizes cuDNN's workspace and reserve space.
  void prepare(const DeviceContext& context, const ImageShape& shape);
  // output = epilogue(BN(input) [+ residual]): residual is read only by add_relu. Activations of
  // the prepared shape's element type; scale, shift and statistics stay fp32.
  void forward(const DeviceContext& context, const void* input, const void* residual, void* output, bool training);
  // From dL/doutput, with `output` as the last training forward wrote it: writes dL/dinput,
  // dL/dscale and dL/dshift (beta 0, see Conv2dLayer::backward) and, with add_relu, dL/dresidual
  // into residual_gradient. output_gradient may be overwritten (a ReLU left to our kernel masks it in place).
  void backward(const DeviceContext& context, const void* input, const void* output, void* output_gradient,
                void* input_gradient, void* residual_gradient);

  const BatchNormPath& path() const { return path_; }
  const float* running_mean() const { return running_mean_.data(); }
  const float* running_variance() const { return running_variance_.data(); }

 private:
  struct Sizes {
    std::size_t forward_workspace = 0;
    std::size_t backward_workspace = 0;
    std::size_t reserve = 0;
  };
  cudnnStatus_t query_sizes(const DeviceContext& context, Sizes& sizes) const;
  void settle_path(const DeviceContext& context);
  void step_down();
  cudnnStatus_t forward_training(const DeviceContext& context, const void* input, const void* residual,
                                 void* output);
  void forward_inference(const DeviceContext& context, const void* input, void* output);
  void apply_epilogue(const DeviceContext& context, BatchNormEpilogue left, const void* residual, void* output) const;
  cudnnActivationDescriptor_t activation() const;
  bool adds() const { return path_.ops == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION; }

  int channels_;
  BatchNormRequest request_;
  BatchNormPath path_;
  ParameterSlice parameters_;
  TensorDescriptor data_descriptor_;
  TensorDescriptor statistics_descriptor_;
  ActivationDescriptor activation_;
  ImageShape shape_;
  DeviceArray<float> running_mean_;
  DeviceArray<float> running_variance_;
  DeviceArray<float> saved_mean_;
  DeviceArray<float> saved_inverse_deviation_;
  DeviceArray<std::byte> workspace_;
  DeviceArray<std::byte> reserve_;
};

}  // namespace gpuprof::workloads
