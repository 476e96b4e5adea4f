#include "convolution_graph.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "cuda_check.hpp"
#include "device_array.hpp"
#include "element_type.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

// Our activations, parameters and workspace start on 256-byte boundaries; 16 is what
// cuDNN's vectorised kernels need and what every pointer here guarantees.
constexpr std::int64_t tensor_alignment = 16;

BackendDescriptor tensor(GraphTensor uid, const StridedShape& layout, ElementType element) {
  BackendDescriptor descriptor(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
  const cudnnDataType_t type = cudnn_data_type(element);
  const std::int64_t id = uid;
  descriptor.set(CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type, "tensor data type");
  descriptor.set(CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, layout.dimensions.data(), "tensor dimensions");
  descriptor.set(CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, layout.strides.data(), "tensor strides");
  descriptor.set(CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &id, "tensor id");
  descriptor.set(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &tensor_alignment, "tensor alignment");
  descriptor.finalize("tensor");
  return descriptor;
}

BackendDescriptor convolution(const ConvolutionGeometry& g) {
  BackendDescriptor descriptor(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
  const cudnnDataType_t accumulate = CUDNN_DATA_FLOAT;  // fp32 accumulation in every precision
  const cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
  const std::int64_t spatial = 2;
  const std::array<std::int64_t, 2> dilation{1, 1};
  const std::array<std::int64_t, 2> stride{g.stride, g.stride};
  const std::array<std::int64_t, 2> padding{g.padding, g.padding};
  descriptor.set(CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &accumulate, "convolution compute type");
  descriptor.set(CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode, "convolution mode");
  descriptor.set(CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &spatial, "convolution dimensions");
  descriptor.set(CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, 2, dilation.data(), "convolution dilations");
  descriptor.set(CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, 2, stride.data(), "convolution strides");
  descriptor.set(CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, 2, padding.data(), "convolution padding");
  descriptor.set(CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, 2, padding.data(), "convolution padding");
  descriptor.finalize("convolution");
  return descriptor;
}

// The attributes of one pass's operation: its descriptor type, then alpha, beta, the
// convolution and the three tensors (input-like, filter-like, output-like).
struct OperationAttributes {
  cudnnBackendDescriptorType_t type;
  cudnnBackendAttributeName_t alpha, beta, convolution, input, filter, output;
};

constexpr OperationAttributes forward_attributes{
    CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA,
    CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA,         CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC,
    CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X,            CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W,
    CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y};
constexpr OperationAttributes data_attributes{
    CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA,
    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA,              CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC,
    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX,                CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W,
    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY};
constexpr OperationAttributes filter_attributes{
    CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA,
    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA,              CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC,
    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X,                 CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW,
    CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY};

BackendDescriptor make_operation(const OperationAttributes& a, float beta, const BackendDescriptor& conv,
                            const BackendDescriptor& input, const BackendDescriptor& filter,
                            const BackendDescriptor& output) {
  BackendDescriptor descriptor(a.type);
  const float alpha = 1.0F;
  descriptor.set(a.alpha, CUDNN_TYPE_FLOAT, 1, &alpha, "operation alpha");
  descriptor.set(a.beta, CUDNN_TYPE_FLOAT, 1, &beta, "operation beta");
  descriptor.set(a.convolution, conv, "operation convolution");
  descriptor.set(a.input, input, "operation input");
  descriptor.set(a.filter, filter, "operation filter");
  descriptor.set(a.output, output, "operation output");
  descriptor.finalize("convolution operation");
  return descriptor;
}

BackendDescriptor operation_graph(cudnnHandle_t handle, const BackendDescriptor& op) {
  BackendDescriptor graph(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
  const cudnnBackendDescriptor_t raw = op.get();
  graph.set(CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw, "graph operations");
  graph.set(CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle, "graph handle");
  graph.finalize("operation graph");
  return graph;
}

template <typename Note>
std::vector<Note> notes_of(const BackendDescriptor& engine, cudnnBackendAttributeName_t name,
                           cudnnBackendAttributeType_t type, std::size_t most) {
  std::vector<Note> notes(most);
  std::int64_t count = 0;
  check_status(cudnnBackendGetAttribute(engine.get(), name, type, static_cast<std::int64_t>(most), &count,
                                        notes.data()),
               "cudnnBackendGetAttribute of the engine notes");
  notes.resize(static_cast<std::size_t>(std::clamp<std::int64_t>(count, 0, static_cast<std::int64_t>(most))));
  return notes;
}

GraphEngine describe_engine(const BackendDescriptor& configuration) {
  BackendDescriptor engine(CUDNN_BACKEND_ENGINE_DESCRIPTOR);
  cudnnBackendDescriptor_t raw = engine.get();
  std::int64_t count = 0;
  check_status(cudnnBackendGetAttribute(configuration.get(), CUDNN_ATTR_ENGINECFG_ENGINE,
                                        CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &count, &raw),
               "cudnnBackendGetAttribute of the engine of a configuration");
  GraphEngine described;
  check_status(cudnnBackendGetAttribute(engine.get(), CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1, &count,
                                        &described.global_index),
               "cudnnBackendGetAttribute of the engine index");
  described.numerical_notes = notes_of<cudnnBackendNumericalNote_t>(
      engine, CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE, CUDNN_NUMERICAL_NOTE_TYPE_COUNT);
  described.behavior_notes = notes_of<cudnnBackendBehaviorNote_t>(
      engine, CUDNN_ATTR_ENGINE_BEHAVIOR_NOTE, CUDNN_TYPE_BEHAVIOR_NOTE, CUDNN_BEHAVIOR_NOTE_TYPE_COUNT);
  return described;
}

// The heuristics' engine configurations for `pass.graph` in one mode, appended to the pass.
void offer(GraphPass& pass, cudnnBackendHeurMode_t mode) {
  BackendDescriptor heuristics(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
  const cudnnBackendDescriptor_t graph = pass.graph->get();
  heuristics.set(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &graph, "heuristics graph");
  heuristics.set(CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode, "heuristics mode");
  heuristics.finalize("engine heuristics");
  std::int64_t count = 0;
  check_status(cudnnBackendGetAttribute(heuristics.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                        CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr),
               "cudnnBackendGetAttribute of the heuristics result count");
  if (count <= 0) return;
  std::vector<BackendDescriptor> configurations;
  std::vector<cudnnBackendDescriptor_t> raw;
  for (std::int64_t i = 0; i < count; ++i) {
    configurations.emplace_back(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    raw.push_back(configurations.back().get());
  }
  std::int64_t returned = 0;
  check_status(cudnnBackendGetAttribute(heuristics.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                        CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &returned, raw.data()),
               "cudnnBackendGetAttribute of the heuristics results");
  configurations.erase(configurations.begin() + std::clamp<std::int64_t>(returned, 0, count), configurations.end());
  for (auto& configuration : configurations) {
    try {
      pass.engines.push_back(describe_engine(configuration));
    } catch (const WorkloadError&) {
      continue;  // an engine cuDNN cannot describe is one we cannot check the numerics of: left out
    }
    pass.configurations.push_back(std::move(configuration));
  }
}

// Mode A's engines, then the fallback list's; either may be refused where the other is not,
// and only both refusing (no engine at all) refuses the pass.
void offer_engines(GraphPass& pass) {
  std::string first_refusal;
  for (const cudnnBackendHeurMode_t mode : {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_FALLBACK}) {
    try {
      offer(pass, mode);
    } catch (const WorkloadError& error) {
      if (first_refusal.empty()) first_refusal = error.what();
    }
  }
  if (pass.engines.empty()) {
    throw WorkloadError(first_refusal.empty() ? std::string("cuDNN's heuristics offered no engine") : first_refusal);
  }
}

// The finalized plan of a configuration and its workspace, or nullopt where cuDNN refuses it.
std::optional<std::pair<BackendDescriptor, std::size_t>> finalize_plan(cudnnHandle_t handle,
                                                                       const BackendDescriptor& configuration) {
  try {
    BackendDescriptor plan(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
    const cudnnBackendDescriptor_t raw = configuration.get();
    plan.set(CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle, "plan handle");
    plan.set(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw, "plan configuration");
    plan.finalize("execution plan");
    std::int64_t bytes = 0;
    std::int64_t count = 0;
    GPUPROF_CHECK(cudnnBackendGetAttribute(plan.get(), CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1,
                                           &count, &bytes));
    if (bytes < 0) return std::nullopt;
    return std::make_pair(std::move(plan), static_cast<std::size_t>(bytes));
  } catch (const WorkloadError&) {
    return std::nullopt;  // an engine the heuristics offered but this GPU or shape cannot build
  }
}

std::size_t bytes_of(const ImageShape& shape) {
  return static_cast<std::size_t>(shape.elements()) * element_bytes(shape.element);
}

// Events around one run of a plan, after an untimed run (which loads its kernels).
class PlanTimer {
 public:
  PlanTimer() {
    GPUPROF_CHECK(cudaEventCreate(&start_));
    GPUPROF_CHECK(cudaEventCreate(&stop_));
  }
  ~PlanTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  PlanTimer(const PlanTimer&) = delete;
  PlanTimer& operator=(const PlanTimer&) = delete;

  template <typename Run>
  float milliseconds(cudaStream_t stream, const Run& run) {
    run();
    GPUPROF_CHECK(cudaEventRecord(start_, stream));
    run();
    GPUPROF_CHECK(cudaEventRecord(stop_, stream));
    GPUPROF_CHECK(cudaEventSynchronize(stop_));
    float elapsed = 0.0F;
    GPUPROF_CHECK(cudaEventElapsedTime(&elapsed, start_, stop_));
    return elapsed;
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace

BackendDescriptor::BackendDescriptor(cudnnBackendDescriptorType_t type) {
  GPUPROF_CHECK(cudnnBackendCreateDescriptor(type, &descriptor_));
}

BackendDescriptor::~BackendDescriptor() {
  if (descriptor_ != nullptr) cudnnBackendDestroyDescriptor(descriptor_);  // cannot report from a destructor
}

BackendDescriptor::BackendDescriptor(BackendDescriptor&& other) noexcept
    : descriptor_(std::exchange(other.descriptor_, nullptr)) {}

BackendDescriptor& BackendDescriptor::operator=(BackendDescriptor&& other) noexcept {
  if (this != &other) {
    if (descriptor_ != nullptr) cudnnBackendDestroyDescriptor(descriptor_);
    descriptor_ = std::exchange(other.descriptor_, nullptr);
  }
  return *this;
}

void BackendDescriptor::set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, std::int64_t count,
                            const void* values, const char* what) {
  // The C API takes a non-const pointer but only reads the values.
  const cudnnStatus_t status = cudnnBackendSetAttribute(descriptor_, name, type, count, const_cast<void*>(values));
  check_status(status, fmt::format("cudnnBackendSetAttribute of the {}", what).c_str());
}

void BackendDescriptor::set(cudnnBackendAttributeName_t name, const BackendDescriptor& value, const char* what) {
  const cudnnBackendDescriptor_t raw = value.get();
  set(name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &raw, what);
}

void BackendDescriptor::finalize(const char* what) {
  check_status(cudnnBackendFinalize(descriptor_), fmt::format("cudnnBackendFinalize of the {}", what).c_str());
}

ConvolutionOperations::ConvolutionOperations(const ConvolutionGeometry& g)
    : input_(tensor(graph_input, image_layout(g.input), g.input.element)),
      filter_(tensor(graph_filter,
                     filter_layout(g.output.channels, g.input.channels, g.kernel, g.input.channels_last),
                     g.input.element)),
      output_(tensor(graph_output, image_layout(g.output), g.output.element)),
      convolution_(convolution(g)),
      forward_(make_operation(forward_attributes, 0.0F, convolution_, input_, filter_, output_)),
      data_(make_operation(data_attributes, 0.0F, convolution_, input_, filter_, output_)),
      data_accumulate_(make_operation(data_attributes, 1.0F, convolution_, input_, filter_, output_)),
      filter_gradient_(make_operation(filter_attributes, 0.0F, convolution_, input_, filter_, output_)) {}

const BackendDescriptor& ConvolutionOperations::operation(ConvolutionPass pass, bool accumulate) const {
  if (pass == ConvolutionPass::forward) return forward_;
  if (pass == ConvolutionPass::filter) return filter_gradient_;
  return accumulate ? data_accumulate_ : data_;
}

StridedShape ConvolutionOperations::layout_of(GraphTensor which) const {
  const BackendDescriptor& descriptor = which == graph_input ? input_ : which == graph_filter ? filter_ : output_;
  StridedShape layout;
  std::int64_t count = 0;
  GPUPROF_CHECK(cudnnBackendGetAttribute(descriptor.get(), CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, &count,
                                         layout.dimensions.data()));
  GPUPROF_CHECK(cudnnBackendGetAttribute(descriptor.get(), CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, &count,
                                         layout.strides.data()));
  return layout;
}

ConvolutionGraph::ConvolutionGraph(cudnnHandle_t handle, const ConvolutionGeometry& geometry)
    : geometry_(geometry), operations_(geometry) {
  for (const ConvolutionPass which : {ConvolutionPass::forward, ConvolutionPass::data, ConvolutionPass::filter}) {
    pass(which).graph = operation_graph(handle, operations_.operation(which));
    offer_engines(pass(which));
  }
  data_accumulate_.graph = operation_graph(handle, operations_.operation(ConvolutionPass::data, true));
  offer_engines(data_accumulate_);
}

GraphMeasurement ConvolutionGraph::measure(cudnnHandle_t handle, cudnnMathType_t requested, std::size_t limit,
                                           std::size_t engines_per_pass) {
  const std::size_t filter_bytes = static_cast<std::size_t>(geometry_.output.channels) * geometry_.kernel *
                                   geometry_.kernel * geometry_.input.channels * element_bytes(geometry_.input.element);
  DeviceArray<unsigned char> input(bytes_of(geometry_.input), "graph convolution timing input");
  DeviceArray<unsigned char> filters(filter_bytes, "graph convolution timing filters");
  DeviceArray<unsigned char> output(bytes_of(geometry_.output), "graph convolution timing output");
  cudaStream_t stream = nullptr;
  GPUPROF_CHECK(cudnnGetStream(handle, &stream));
  for (auto* array : {&input, &filters, &output}) array->zero(stream);
  const std::array<void*, 3> pointers{input.data(), filters.data(), output.data()};
  PlanTimer timer;
  GraphMeasurement measurement;
  for (const ConvolutionPass which : {ConvolutionPass::forward, ConvolutionPass::data, ConvolutionPass::filter}) {
    GraphPass& timed = pass(which);
    std::vector<std::pair<std::size_t, std::pair<BackendDescriptor, std::size_t>>> plans;
    std::size_t largest = 0;
    for (const std::size_t position : engines_to_time(timed.engines, requested, engines_per_pass)) {
      auto plan = finalize_plan(handle, timed.configurations[position]);
      if (!plan || plan->second > limit) continue;
      largest = std::max(largest, plan->second);
      plans.emplace_back(position, std::move(*plan));
    }
    DeviceArray<unsigned char> workspace(std::max<std::size_t>(largest, 1), "graph convolution timing workspace");
    for (auto& [position, plan] : plans) {
      GraphPass candidate;
      candidate.plan = std::move(plan.first);
      float milliseconds = std::numeric_limits<float>::quiet_NaN();
      try {
        milliseconds = timer.milliseconds(stream, [&] { execute(handle, candidate, pointers, workspace.data()); });
      } catch (const WorkloadError&) {
        // a plan that finalized but failed to run is kept with no time: never chosen
      }
      measurement.of(which).push_back(TimedPlan{timed.engines[position].global_index, position, milliseconds,
                                                plan.second});
    }
  }
  return measurement;
}

bool ConvolutionGraph::choose(cudnnHandle_t handle, const GraphMeasurement& measurement, cudnnMathType_t requested,
                              std::size_t limit) {
  for (const ConvolutionPass which : {ConvolutionPass::forward, ConvolutionPass::data, ConvolutionPass::filter}) {
    GraphPass& chosen = pass(which);
    const auto best = fastest_fitting_plan(measurement.of(which), limit);
    // The same configuration as timed: same graph, same heuristics, same position and engine.
    if (!best || best->position >= chosen.engines.size() ||
        chosen.engines[best->position].global_index != best->engine) {
      return false;
    }
    auto plan = finalize_plan(handle, chosen.configurations[best->position]);
    if (!plan || plan->second > limit) return false;
    chosen.plan = std::move(plan->first);
    chosen.workspace_bytes = plan->second;
    if (which == ConvolutionPass::data && !choose_accumulating(handle, best->engine, requested, limit)) return false;
  }
  return true;
}

// The beta-1 data gradient runs the engine the beta-0 one was timed to be fastest with, or
// (where that engine refuses beta 1) the first of its own heuristics' engines that builds.
bool ConvolutionGraph::choose_accumulating(cudnnHandle_t handle, std::int64_t engine, cudnnMathType_t requested,
                                           std::size_t limit) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < data_accumulate_.engines.size(); ++i) {
    if (data_accumulate_.engines[i].global_index == engine) order.push_back(i);
  }
  for (const std::size_t i : engines_to_time(data_accumulate_.engines, requested, data_accumulate_.engines.size())) {
    order.push_back(i);
  }
  for (const std::size_t i : order) {
    if (!graph_engine_respects(requested, data_accumulate_.engines[i].numerical_notes)) continue;
    auto plan = finalize_plan(handle, data_accumulate_.configurations[i]);
    if (!plan || plan->second > limit) continue;
    data_accumulate_.plan = std::move(plan->first);
    data_accumulate_.workspace_bytes = plan->second;
    return true;
  }
  return false;
}

std::size_t ConvolutionGraph::workspace_bytes(ConvolutionPass which) const {
  const std::size_t bytes = pass(which).workspace_bytes;
  return which == ConvolutionPass::data ? std::max(bytes, data_accumulate_.workspace_bytes) : bytes;
}

void ConvolutionGraph::execute(cudnnHandle_t handle, const GraphPass& chosen, const std::array<void*, 3>& pointers,
                               void* workspace) const {
  if (!chosen.plan) throw WorkloadError("a graph convolution ran before its plan was chosen");
  static constexpr std::array<std::int64_t, 3> ids{graph_input, graph_filter, graph_output};
  BackendDescriptor pack(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
  pack.set(CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, 3, ids.data(), "variant pack ids");
  pack.set(CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, 3, pointers.data(), "variant pack pointers");
  pack.set(CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace, "variant pack workspace");
  pack.finalize("variant pack");
  GPUPROF_CHECK(cudnnBackendExecute(handle, chosen.plan->get(), pack.get()));
}

void ConvolutionGraph::forward(cudnnHandle_t handle, const void* input, const void* filters, void* output,
                               void* workspace) const {
  execute(handle, pass(ConvolutionPass::forward),
          {const_cast<void*>(input), const_cast<void*>(filters), output}, workspace);
}

void ConvolutionGraph::backward_data(cudnnHandle_t handle, const void* filters, const void* output_gradient,
                                     void* input_gradient, bool accumulate, void* workspace) const {
  execute(handle, accumulate ? data_accumulate_ : pass(ConvolutionPass::data),
          {input_gradient, const_cast<void*>(filters), const_cast<void*>(output_gradient)}, workspace);
}

void ConvolutionGraph::backward_filter(cudnnHandle_t handle, const void* input, const void* output_gradient,
                                       void* filter_gradient, void* workspace) const {
  execute(handle, pass(ConvolutionPass::filter),
          {const_cast<void*>(input), filter_gradient, const_cast<void*>(output_gradient)}, workspace);
}

}  // namespace gpuprof::workloads
