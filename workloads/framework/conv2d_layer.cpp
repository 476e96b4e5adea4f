#include "conv2d_layer.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "cuda_check.hpp"
#include "element_type.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

// Enough for every heuristic's fast algorithms on the layers of a ResNet at batch 256.
constexpr std::size_t default_workspace_limit = std::size_t{1} << 30;

// The first heuristic result that ran and fits; cuDNN lists them fastest first.
template <typename Perf, std::size_t N>
Perf first_fitting(const std::array<Perf, N>& results, int count, std::size_t limit, const char* pass) {
  for (int i = 0; i < count; ++i) {
    const Perf& perf = results[static_cast<std::size_t>(i)];
    if (perf.status == CUDNN_STATUS_SUCCESS && perf.memory <= limit) return perf;
  }
  throw WorkloadError(fmt::format("cuDNN offers no {} convolution algorithm within {} MiB of workspace", pass,
                                  limit >> 20));
}

cudnnMathType_t math_for(ElementType element, Precision precision) {
  if (element == ElementType::bf16) return CUDNN_TENSOR_OP_MATH;
  return precision == Precision::tf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH;
}

}  // namespace

Conv2dLayer::Conv2dLayer(const DeviceContext& context, const Conv2dConfig& config) : config_(config) {
  filter_descriptor_.set(config.outputs, config.input.channels, config.kernel, config.input.channels_last,
                         config.input.element);
  convolution_descriptor_.set(config.padding, config.stride, math_for(config.input.element, context.precision()));
  output_ = output_shape(config.input.batch);
  prepare(context, config.input.batch, default_workspace_limit);
}

std::size_t Conv2dLayer::parameter_count() const {
  return static_cast<std::size_t>(config_.outputs) * config_.kernel * config_.kernel * config_.input.channels;
}

void Conv2dLayer::initialize(std::span<float> values, DeterministicRandom& random) const {
  const double deviation = std::sqrt(2.0 / (static_cast<double>(config_.outputs) * config_.kernel * config_.kernel));
  for (float& value : values) value = static_cast<float>(deviation * random.normal());
}

ImageShape Conv2dLayer::output_shape(int batch) const {
  const auto size = [&](int input) { return (input + 2 * config_.padding - config_.kernel) / config_.stride + 1; };
  return ImageShape{batch,           size(config_.input.height),    size(config_.input.width),
                    config_.outputs, config_.input.channels_last, config_.input.element};
}

void Conv2dLayer::prepare(const DeviceContext& context, int batch, std::size_t workspace_limit) {
  if (batch == batch_) return;
  batch_ = batch;
  ImageShape input = config_.input;
  input.batch = batch;
  input_descriptor_.set(input);
  output_descriptor_.set(output_shape(batch));
  choose_algorithms(context, workspace_limit);
}

void Conv2dLayer::choose_algorithms(const DeviceContext& context, std::size_t limit) {
  cudnnHandle_t handle = context.cudnn();
  int count = 0;
  std::array<cudnnConvolutionFwdAlgoPerf_t, CUDNN_CONVOLUTION_FWD_ALGO_COUNT> forward{};
  GPUPROF_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(handle, input_descriptor_.get(), filter_descriptor_.get(),
                                                       convolution_descriptor_.get(), output_descriptor_.get(),
                                                       static_cast<int>(forward.size()), &count, forward.data()));
  const auto chosen_forward = first_fitting(forward, count, limit, "forward");
  std::array<cudnnConvolutionBwdDataAlgoPerf_t, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT> data{};
  GPUPROF_CHECK(cudnnGetConvolutionBackwardDataAlgorithm_v7(handle, filter_descriptor_.get(),
                                                            output_descriptor_.get(), convolution_descriptor_.get(),
                                                            input_descriptor_.get(), static_cast<int>(data.size()),
                                                            &count, data.data()));
  const auto chosen_data = first_fitting(data, count, limit, "backward-data");
  std::array<cudnnConvolutionBwdFilterAlgoPerf_t, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT> filter{};
  GPUPROF_CHECK(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
      handle, input_descriptor_.get(), output_descriptor_.get(), convolution_descriptor_.get(),
      filter_descriptor_.get(), static_cast<int>(filter.size()), &count, filter.data()));
  const auto chosen_filter = first_fitting(filter, count, limit, "backward-filter");
  forward_algorithm_ = chosen_forward.algo;
  data_algorithm_ = chosen_data.algo;
  filter_algorithm_ = chosen_filter.algo;
  workspace_bytes_ = std::max({chosen_forward.memory, chosen_data.memory, chosen_filter.memory});
}

const void* Conv2dLayer::filters() const {
  return bf16() ? parameters_.bf16_values : static_cast<const void*>(parameters_.values);
}

void Conv2dLayer::forward(const DeviceContext& context, const void* input, void* output, void* workspace) const {
  const float one = 1.0F;
  const float zero = 0.0F;
  GPUPROF_CHECK(cudnnConvolutionForward(context.cudnn(), &one, input_descriptor_.get(), input,
                                        filter_descriptor_.get(), filters(), convolution_descriptor_.get(),
                                        forward_algorithm_, workspace, workspace_bytes_, &zero,
                                        output_descriptor_.get(), output));
}

void Conv2dLayer::backward(const DeviceContext& context, const void* input, const void* output_gradient,
                           void* input_gradient, bool accumulate, void* workspace) const {
  const float one = 1.0F;
  const float zero = 0.0F;
  // Accumulating in bf16 would round the sum at every layer call; bf16 runs write a fresh
  // bf16 filter gradient and add it to the fp32 gradients.
  void* filter_gradient = bf16() ? parameters_.bf16_gradients : static_cast<void*>(parameters_.gradients);
  GPUPROF_CHECK(cudnnConvolutionBackwardFilter(context.cudnn(), &one, input_descriptor_.get(), input,
                                               output_descriptor_.get(), output_gradient,
                                               convolution_descriptor_.get(), filter_algorithm_, workspace,
                                               workspace_bytes_, bf16() ? &zero : &one, filter_descriptor_.get(),
                                               filter_gradient));
  if (bf16()) {
    launch_add_bf16_into(parameters_.gradients, parameters_.bf16_gradients,
                         static_cast<long long>(parameter_count()), context.compute_stream());
  }
  if (input_gradient == nullptr) return;
  GPUPROF_CHECK(cudnnConvolutionBackwardData(context.cudnn(), &one, filter_descriptor_.get(), filters(),
                                             output_descriptor_.get(), output_gradient,
                                             convolution_descriptor_.get(), data_algorithm_, workspace,
                                             workspace_bytes_, accumulate ? &one : &zero, input_descriptor_.get(),
                                             input_gradient));
}

}  // namespace gpuprof::workloads
