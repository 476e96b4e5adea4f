#include "batch_norm_layer.hpp"

#include <vector>

#include <fmt/format.h>

#include "cuda_check.hpp"
#include "layer_kernels.hpp"
#include "layer_notice.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

constexpr double epsilon = 1e-5;
constexpr double momentum = 0.1;  // weight of the new batch in the running statistics

bool same_shape(const ImageShape& a, const ImageShape& b) {
  return a.batch == b.batch && a.height == b.height && a.width == b.width && a.channels == b.channels &&
         a.channels_last == b.channels_last && a.element == b.element;
}

// Grows (never shrinks) a buffer cuDNN sizes per shape; the largest batch comes first.
void ensure_bytes(DeviceArray<std::byte>& buffer, std::size_t bytes, const char* what) {
  if (bytes > buffer.size()) buffer = DeviceArray<std::byte>(bytes, what);
}

}  // namespace

BatchNormLayer::BatchNormLayer(int channels, BatchNormImplementation implementation, BatchNormEpilogue epilogue)
    : channels_(channels),
      request_{implementation, true, ElementType::fp32, epilogue},
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

void BatchNormLayer::prepare(const DeviceContext& context, const ImageShape& shape) {
  if (same_shape(shape, shape_)) return;
  const bool first = shape_.batch == 0;
  shape_ = shape;
  data_descriptor_.set(shape);
  // Scale, shift and statistics are fp32 whatever the activations are (1 x C x 1 x 1 for spatial
  // mode): set explicitly rather than derived, since derivation follows the data type.
  GPUPROF_CHECK(cudnnSetTensor4dDescriptor(statistics_descriptor_.get(), CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1,
                                           channels_, 1, 1));
  if (first) {
    request_.channels_last = shape.channels_last;
    request_.element = shape.element;
    path_ = choose_batch_norm_path(request_);
  }
  settle_path(context);
}

cudnnActivationDescriptor_t BatchNormLayer::activation() const {
  return path_.ops == CUDNN_BATCHNORM_OPS_BN ? nullptr : activation_.get();
}

cudnnStatus_t BatchNormLayer::query_sizes(const DeviceContext& context, Sizes& sizes) const {
  sizes = Sizes{};
  if (!path_.extended) return CUDNN_STATUS_SUCCESS;
  const cudnnTensorDescriptor_t data = data_descriptor_.get();
  const cudnnTensorDescriptor_t residual = adds() ? data : nullptr;
  const cudnnTensorDescriptor_t output = path_.ops == CUDNN_BATCHNORM_OPS_BN ? nullptr : data;
  cudnnStatus_t status = cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
      context.cudnn(), path_.mode, path_.ops, data, residual, data, statistics_descriptor_.get(), activation(),
      &sizes.forward_workspace);
  if (status != CUDNN_STATUS_SUCCESS) return status;
  status = cudnnGetBatchNormalizationBackwardExWorkspaceSize(context.cudnn(), path_.mode, path_.ops, data, output,
                                                             data, residual, data, statistics_descriptor_.get(),
                                                             activation(), &sizes.backward_workspace);
  if (status != CUDNN_STATUS_SUCCESS) return status;
  return cudnnGetBatchNormalizationTrainingExReserveSpaceSize(context.cudnn(), path_.mode, path_.ops, activation(),
                                                              data, &sizes.reserve);
}

void BatchNormLayer::settle_path(const DeviceContext& context) {
  for (;;) {
    Sizes sizes;
    const cudnnStatus_t status = query_sizes(context, sizes);
    if (status == CUDNN_STATUS_SUCCESS) {
      ensure_bytes(workspace_, std::max(sizes.forward_workspace, sizes.backward_workspace), "batch norm workspace");
      ensure_bytes(reserve_, sizes.reserve, "batch norm reserve space");
      return;
    }
    if (status != CUDNN_STATUS_NOT_SUPPORTED) check_status(status, "cudnnGetBatchNormalization...Size");
    step_down();
  }
}

void BatchNormLayer::step_down() {
  const std::optional<BatchNormPath> next = fallback_after(path_);
  if (!next) throw WorkloadError("cuDNN refused even the legacy batch normalisation for a layer");
  note_once(fmt::format("cuDNN refused batch norm by {} for {} {} tensors; using {} instead", describe(path_),
                        shape_.element == ElementType::bf16 ? "bf16" : "fp32",
                        shape_.channels_last ? "NHWC" : "NCHW", describe(*next)));
  path_ = *next;
}

void BatchNormLayer::forward(const DeviceContext& context, const void* input, const void* residual, void* output,
                             bool training) {
  if (!training) {
    forward_inference(context, input, output);
    apply_epilogue(context, request_.epilogue, residual, output);
    return;
  }
  // A refusal at the call itself (the size queries accepted the path) steps down and retries.
  for (cudnnStatus_t status = forward_training(context, input, residual, output);
       status != CUDNN_STATUS_SUCCESS; status = forward_training(context, input, residual, output)) {
    if (status != CUDNN_STATUS_NOT_SUPPORTED) check_status(status, "cudnnBatchNormalizationForwardTraining(Ex)");
    step_down();
    settle_path(context);
  }
  apply_epilogue(context, epilogue_left(path_, request_.epilogue), residual, output);
}

cudnnStatus_t BatchNormLayer::forward_training(const DeviceContext& context, const void* input,
                                               const void* residual, void* output) {
  const float one = 1.0F;
  const float zero = 0.0F;
  const float* scale = parameters_.values;
  const float* shift = parameters_.values + channels_;
  const cudnnTensorDescriptor_t data = data_descriptor_.get();
  if (!path_.extended) {
    return cudnnBatchNormalizationForwardTraining(
        context.cudnn(), path_.mode, &one, &zero, data, input, data, output, statistics_descriptor_.get(), scale,
        shift, momentum, running_mean_.data(), running_variance_.data(), epsilon, saved_mean_.data(),
        saved_inverse_deviation_.data());
  }
  return cudnnBatchNormalizationForwardTrainingEx(
      context.cudnn(), path_.mode, path_.ops, &one, &zero, data, input, adds() ? data : nullptr,
      adds() ? residual : nullptr, data, output, statistics_descriptor_.get(), scale, shift, momentum,
      running_mean_.data(), running_variance_.data(), epsilon, saved_mean_.data(), saved_inverse_deviation_.data(),
      activation(), workspace_.data(), workspace_.bytes(), reserve_.data(), reserve_.bytes());
}

void BatchNormLayer::forward_inference(const DeviceContext& context, const void* input, void* output) {
  const float one = 1.0F;
  const float zero = 0.0F;
  GPUPROF_CHECK(cudnnBatchNormalizationForwardInference(
      context.cudnn(), CUDNN_BATCHNORM_SPATIAL, &one, &zero, data_descriptor_.get(), input, data_descriptor_.get(),
      output, statistics_descriptor_.get(), parameters_.values, parameters_.values + channels_,
      running_mean_.data(), running_variance_.data(), epsilon));
}

void BatchNormLayer::apply_epilogue(const DeviceContext& context, BatchNormEpilogue left, const void* residual,
                                    void* output) const {
  if (left == BatchNormEpilogue::none) return;
  if (left == BatchNormEpilogue::relu) {
    launch_activation_forward(shape_.element, ActivationKind::relu, output, output, shape_.elements(),
                              context.compute_stream());
  } else {
    launch_add_relu(shape_.element, output, residual, shape_.elements(), context.compute_stream());
  }
}

void BatchNormLayer::backward(const DeviceContext& context, const void* input, const void* output,
                              void* output_gradient, void* input_gradient, void* residual_gradient) {
  const float one = 1.0F;
  const float zero = 0.0F;
  const BatchNormEpilogue left = epilogue_left(path_, request_.epilogue);
  // A ReLU left to our kernel: its gradient (dL/doutput masked where output is 0) is BN's output
  // gradient, and after an add also the residual's gradient.
  const void* norm_gradient = output_gradient;
  if (left != BatchNormEpilogue::none) {
    void* masked = left == BatchNormEpilogue::add_relu ? residual_gradient : output_gradient;
    launch_activation_backward(shape_.element, ActivationKind::relu, output, output_gradient, masked,
                               shape_.elements(), context.compute_stream());
    norm_gradient = masked;
  }
  const cudnnTensorDescriptor_t data = data_descriptor_.get();
  if (!path_.extended) {
    GPUPROF_CHECK(cudnnBatchNormalizationBackward(
        context.cudnn(), path_.mode, &one, &zero, &one, &zero, data, input, data, norm_gradient, data,
        input_gradient, statistics_descriptor_.get(), parameters_.values, parameters_.gradients,
        parameters_.gradients + channels_, epsilon, saved_mean_.data(), saved_inverse_deviation_.data()));
    return;
  }
  const bool fused = path_.ops != CUDNN_BATCHNORM_OPS_BN;
  GPUPROF_CHECK(cudnnBatchNormalizationBackwardEx(
      context.cudnn(), path_.mode, path_.ops, &one, &zero, &one, &zero, data, input, fused ? data : nullptr,
      fused ? output : nullptr, data, norm_gradient, adds() ? data : nullptr, adds() ? residual_gradient : nullptr,
      data, input_gradient, statistics_descriptor_.get(), parameters_.values, parameters_.values + channels_,
      parameters_.gradients, parameters_.gradients + channels_, epsilon, saved_mean_.data(),
      saved_inverse_deviation_.data(), activation(), workspace_.data(), workspace_.bytes(), reserve_.data(),
      reserve_.bytes()));
}

}  // namespace gpuprof::workloads
