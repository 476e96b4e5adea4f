#include "conv2d_layer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "convolution_algorithm.hpp"
#include "convolution_graph.hpp"
#include "convolution_measurement.hpp"
#include "cuda_check.hpp"
#include "element_type.hpp"
#include "layer_notice.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

// Enough for every heuristic's fast algorithms on the layers of a ResNet at batch 256.
constexpr std::size_t default_workspace_limit = std::size_t{1} << 30;
// Graph plans timed per pass: the heuristics' order is good, so the best is nearly always
// among the first few, and each timing costs two runs of the pass in the first step.
constexpr std::size_t graph_engines_per_pass = 4;

template <typename Choice>
Choice required(const std::optional<Choice>& choice, const char* pass, std::size_t limit) {
  if (choice) return *choice;
  throw WorkloadError(fmt::format("cuDNN offers no {} convolution algorithm within {} MiB of workspace", pass,
                                  limit >> 20));
}

std::optional<std::size_t> workspace_if(cudnnStatus_t status, std::size_t bytes) {
  if (status != CUDNN_STATUS_SUCCESS) return std::nullopt;
  return bytes;
}

cudnnMathType_t math_for(ElementType element, Precision precision) {
  if (element == ElementType::bf16) return CUDNN_TENSOR_OP_MATH;
  return precision == Precision::tf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH;
}

}  // namespace

Conv2dLayer::Conv2dLayer(const DeviceContext& context, const Conv2dConfig& config)
    : config_(config), requested_math_(math_for(config.input.element, context.precision())), gpu_(context.name()) {
  filter_descriptor_.set(config.outputs, config.input.channels, config.kernel, config.input.channels_last,
                         config.input.element);
  for (auto* convolution : {&forward_convolution_, &data_convolution_, &filter_convolution_}) {
    convolution->set(config.padding, config.stride, requested_math_);
  }
  output_ = output_shape(config.input.batch);
  prepare(context, config.input.batch, default_workspace_limit);
}

Conv2dLayer::~Conv2dLayer() = default;

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

ConvolutionKey Conv2dLayer::key() const {
  return ConvolutionKey{batch_,          config_.input.height, config_.input.width, config_.input.channels,
                        config_.outputs, config_.kernel,       config_.stride,      config_.padding,
                        config_.input.channels_last,           config_.input.element, requested_math_, gpu_};
}

// Each pass is asked about with the math type the precision allows; the chosen
// algorithm's math type stays on its own descriptor, with cuDNN's workspace figure.
// --conv-algo graph steps down to measured, measured to the heuristics, each with a note.
void Conv2dLayer::choose_algorithms(const DeviceContext& context, std::size_t limit) {
  const ConvolutionSearch search = config_.search;
  bool chosen = search == ConvolutionSearch::graph && choose_graph(context.cudnn(), limit);
  if (!chosen && search != ConvolutionSearch::heuristic) chosen = choose_measured(context.cudnn(), limit);
  if (!chosen) choose_heuristic(context.cudnn(), limit);
  workspace_bytes_ = std::max({forward_workspace_, data_workspace_, filter_workspace_});
}

// False (after a note) where the graph API refuses this convolution or no timed plan fits:
// the caller then takes the measured path. Graphs hold the batch, so a new batch builds anew.
bool Conv2dLayer::choose_graph(cudnnHandle_t handle, std::size_t limit) {
  graph_.reset();
  ImageShape input = config_.input;
  input.batch = batch_;
  const ConvolutionGeometry geometry{input, output_shape(batch_), config_.kernel, config_.stride, config_.padding};
  try {
    auto graph = std::make_unique<ConvolutionGraph>(handle, geometry);
    const GraphMeasurement measurement = graph_plan_cache().find_or_measure(
        key(), [&] { return graph->measure(handle, requested_math_, limit, graph_engines_per_pass); });
    if (!graph->choose(handle, measurement, requested_math_, limit)) {
      note_once(fmt::format("no timed cuDNN graph plan that keeps the precision fits {} MiB of workspace (or "
                            "builds again) for some convolutions; those use --conv-algo measured", limit >> 20));
      return false;
    }
    graph_ = std::move(graph);
  } catch (const WorkloadError& error) {
    note_once(fmt::format("cuDNN's graph API refused a convolution ({}); those use --conv-algo measured",
                          error.what()));
    return false;
  }
  forward_workspace_ = graph_->workspace_bytes(ConvolutionPass::forward);
  data_workspace_ = graph_->workspace_bytes(ConvolutionPass::data);
  filter_workspace_ = graph_->workspace_bytes(ConvolutionPass::filter);
  return true;
}

// False (after a note) where the find fails or no measured candidate fits: the caller
// then takes the heuristics' choice.
bool Conv2dLayer::choose_measured(cudnnHandle_t handle, std::size_t limit) {
  ConvolutionMeasurement measurement;
  try {
    measurement = convolution_cache().find_or_measure(key(), [&] { return measure(handle); });
  } catch (const WorkloadError& error) {
    note_once(fmt::format("cuDNN's find failed ({}); those convolutions use the heuristics' choice", error.what()));
    return false;
  }
  const auto forward = fastest_fitting(measurement.forward, limit, requested_math_);
  const auto data = fastest_fitting(measurement.data, limit, requested_math_);
  const auto filter = fastest_fitting(measurement.filter, limit, requested_math_);
  if (!forward || !data || !filter) {
    note_once(fmt::format("no measured convolution algorithm fits {} MiB of workspace for some layers; those use "
                          "the heuristics' choice", limit >> 20));
    return false;
  }
  apply(*forward);
  apply(*data);
  apply(*filter);
  return true;
}

// cuDNN's (non-Ex) find allocates its own buffers and times every algorithm the
// descriptor's math type allows; the workspace limit is applied when choosing.
ConvolutionMeasurement Conv2dLayer::measure(cudnnHandle_t handle) {
  ConvolutionMeasurement measurement;
  int count = 0;
  std::array<cudnnConvolutionFwdAlgoPerf_t, CUDNN_CONVOLUTION_FWD_ALGO_COUNT> forward{};
  forward_convolution_.set_math(requested_math_);
  GPUPROF_CHECK(cudnnFindConvolutionForwardAlgorithm(handle, input_descriptor_.get(), filter_descriptor_.get(),
                                                     forward_convolution_.get(), output_descriptor_.get(),
                                                     static_cast<int>(forward.size()), &count, forward.data()));
  measurement.forward = measured_candidates(forward, count, requested_math_, [&](auto algorithm, auto math) {
    return forward_workspace(handle, algorithm, math);
  });
  std::array<cudnnConvolutionBwdDataAlgoPerf_t, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT> data{};
  data_convolution_.set_math(requested_math_);
  GPUPROF_CHECK(cudnnFindConvolutionBackwardDataAlgorithm(handle, filter_descriptor_.get(), output_descriptor_.get(),
                                                          data_convolution_.get(), input_descriptor_.get(),
                                                          static_cast<int>(data.size()), &count, data.data()));
  measurement.data = measured_candidates(data, count, requested_math_, [&](auto algorithm, auto math) {
    return data_workspace(handle, algorithm, math);
  });
  std::array<cudnnConvolutionBwdFilterAlgoPerf_t, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT> filter{};
  filter_convolution_.set_math(requested_math_);
  GPUPROF_CHECK(cudnnFindConvolutionBackwardFilterAlgorithm(
      handle, input_descriptor_.get(), output_descriptor_.get(), filter_convolution_.get(), filter_descriptor_.get(),
      static_cast<int>(filter.size()), &count, filter.data()));
  measurement.filter = measured_candidates(filter, count, requested_math_, [&](auto algorithm, auto math) {
    return filter_workspace(handle, algorithm, math);
  });
  return measurement;
}

void Conv2dLayer::choose_heuristic(cudnnHandle_t handle, std::size_t limit) {
  int count = 0;
  std::array<cudnnConvolutionFwdAlgoPerf_t, CUDNN_CONVOLUTION_FWD_ALGO_COUNT> forward{};
  forward_convolution_.set_math(requested_math_);
  GPUPROF_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(handle, input_descriptor_.get(), filter_descriptor_.get(),
                                                       forward_convolution_.get(), output_descriptor_.get(),
                                                       static_cast<int>(forward.size()), &count, forward.data()));
  apply(required(first_fitting_algorithm(forward, count, limit,
                                         [&](auto algorithm, auto math) {
                                           return forward_workspace(handle, algorithm, math);
                                         }),
                 "forward", limit));
  std::array<cudnnConvolutionBwdDataAlgoPerf_t, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT> data{};
  data_convolution_.set_math(requested_math_);
  GPUPROF_CHECK(cudnnGetConvolutionBackwardDataAlgorithm_v7(handle, filter_descriptor_.get(),
                                                            output_descriptor_.get(), data_convolution_.get(),
                                                            input_descriptor_.get(), static_cast<int>(data.size()),
                                                            &count, data.data()));
  apply(required(first_fitting_algorithm(data, count, limit,
                                         [&](auto algorithm, auto math) {
                                           return data_workspace(handle, algorithm, math);
                                         }),
                 "backward-data", limit));
  std::array<cudnnConvolutionBwdFilterAlgoPerf_t, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT> filter{};
  filter_convolution_.set_math(requested_math_);
  GPUPROF_CHECK(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
      handle, input_descriptor_.get(), output_descriptor_.get(), filter_convolution_.get(), filter_descriptor_.get(),
      static_cast<int>(filter.size()), &count, filter.data()));
  apply(required(first_fitting_algorithm(filter, count, limit,
                                         [&](auto algorithm, auto math) {
                                           return filter_workspace(handle, algorithm, math);
                                         }),
                 "backward-filter", limit));
}

std::optional<std::size_t> Conv2dLayer::forward_workspace(cudnnHandle_t handle, cudnnConvolutionFwdAlgo_t algorithm,
                                                          cudnnMathType_t math) {
  forward_convolution_.set_math(math);
  std::size_t bytes = 0;
  return workspace_if(cudnnGetConvolutionForwardWorkspaceSize(handle, input_descriptor_.get(),
                                                              filter_descriptor_.get(), forward_convolution_.get(),
                                                              output_descriptor_.get(), algorithm, &bytes),
                      bytes);
}

std::optional<std::size_t> Conv2dLayer::data_workspace(cudnnHandle_t handle, cudnnConvolutionBwdDataAlgo_t algorithm,
                                                       cudnnMathType_t math) {
  data_convolution_.set_math(math);
  std::size_t bytes = 0;
  return workspace_if(cudnnGetConvolutionBackwardDataWorkspaceSize(handle, filter_descriptor_.get(),
                                                                   output_descriptor_.get(), data_convolution_.get(),
                                                                   input_descriptor_.get(), algorithm, &bytes),
                      bytes);
}

std::optional<std::size_t> Conv2dLayer::filter_workspace(cudnnHandle_t handle,
                                                         cudnnConvolutionBwdFilterAlgo_t algorithm,
                                                         cudnnMathType_t math) {
  filter_convolution_.set_math(math);
  std::size_t bytes = 0;
  return workspace_if(cudnnGetConvolutionBackwardFilterWorkspaceSize(handle, input_descriptor_.get(),
                                                                     output_descriptor_.get(),
                                                                     filter_convolution_.get(),
                                                                     filter_descriptor_.get(), algorithm, &bytes),
                      bytes);
}

void Conv2dLayer::apply(const ConvolutionChoice<cudnnConvolutionFwdAlgo_t>& choice) {
  forward_convolution_.set_math(choice.math);
  forward_algorithm_ = choice.algorithm;
  forward_workspace_ = choice.workspace_bytes;
}

void Conv2dLayer::apply(const ConvolutionChoice<cudnnConvolutionBwdDataAlgo_t>& choice) {
  data_convolution_.set_math(choice.math);
  data_algorithm_ = choice.algorithm;
  data_workspace_ = choice.workspace_bytes;
}

void Conv2dLayer::apply(const ConvolutionChoice<cudnnConvolutionBwdFilterAlgo_t>& choice) {
  filter_convolution_.set_math(choice.math);
  filter_algorithm_ = choice.algorithm;
  filter_workspace_ = choice.workspace_bytes;
}

const void* Conv2dLayer::filters() const {
  return bf16() ? parameters_.bf16_values : static_cast<const void*>(parameters_.values);
}

void Conv2dLayer::require_workspace(const ConvolutionWorkspace& workspace) const {
  if (workspace.bytes >= workspace_bytes_) return;
  throw WorkloadError(fmt::format("a convolution needs {} bytes of workspace and was given {}", workspace_bytes_,
                                  workspace.bytes));
}

void Conv2dLayer::forward(const DeviceContext& context, const void* input, void* output,
                          const ConvolutionWorkspace& workspace) const {
  require_workspace(workspace);
  if (graph_) {
    graph_->forward(context.cudnn(), input, filters(), output, workspace.data);
    return;
  }
  const float one = 1.0F;
  const float zero = 0.0F;
  GPUPROF_CHECK(cudnnConvolutionForward(context.cudnn(), &one, input_descriptor_.get(), input,
                                        filter_descriptor_.get(), filters(), forward_convolution_.get(),
                                        forward_algorithm_, workspace.data, workspace.bytes, &zero,
                                        output_descriptor_.get(), output));
}

void Conv2dLayer::backward(const DeviceContext& context, const void* input, const void* output_gradient,
                           void* input_gradient, bool accumulate, const ConvolutionWorkspace& workspace) const {
  require_workspace(workspace);
  const float one = 1.0F;
  const float zero = 0.0F;
  // bf16 runs write a bf16 filter gradient and widen it into the fp32 gradients.
  void* filter_gradient = bf16() ? parameters_.bf16_gradients : static_cast<void*>(parameters_.gradients);
  if (graph_) {
    graph_->backward_filter(context.cudnn(), input, output_gradient, filter_gradient, workspace.data);
  } else {
    GPUPROF_CHECK(cudnnConvolutionBackwardFilter(context.cudnn(), &one, input_descriptor_.get(), input,
                                               output_descriptor_.get(), output_gradient,
                                               filter_convolution_.get(), filter_algorithm_, workspace.data,
                                               workspace.bytes, &zero, filter_descriptor_.get(), filter_gradient));
  }
  if (bf16()) {
    launch_widen_from_bf16(parameters_.bf16_gradients, parameters_.gradients,
                           static_cast<long long>(parameter_count()), context.compute_stream());
  }
  if (input_gradient == nullptr) return;
  if (graph_) {
    graph_->backward_data(context.cudnn(), filters(), output_gradient, input_gradient, accumulate, workspace.data);
    return;
  }
  GPUPROF_CHECK(cudnnConvolutionBackwardData(context.cudnn(), &one, filter_descriptor_.get(), filters(),
                                             output_descriptor_.get(), output_gradient,
                                             data_convolution_.get(), data_algorithm_, workspace.data,
                                             workspace.bytes, accumulate ? &one : &zero, input_descriptor_.get(),
                                             input_gradient));
}

}  // namespace gpuprof::workloads
