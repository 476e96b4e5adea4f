#pragma once

// What a prediction reads from the 1-GPU trace besides its work: the gradient
// size, and the host time the replicas would share.

#include <cstdint>
#include <optional>
#include <string>

#include "gpuprof/predict/replay_graph.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::predict {

struct GradientSize {
  std::int64_t bytes = 0;
  std::string source;
};

// Meta or `gpuprof.meta` marks: gradient_bytes, else parameter_count x 4 (fp32 gradients).
std::optional<GradientSize> gradient_size_from_trace(const trace::TraceModel& model);

// The optimizer's work: one element-wise fp32 update kernel (a name with adam, sgd or optimizer; not a
// multi-tensor kernel, whose blocks each cover many elements) launched once in every step of `graph`
// with a 1-D grid, one thread per parameter: parameters = grid x block, less at most one block's unused
// threads (an upper bound within block x 4 bytes). Needs the kernels' launch details.
std::optional<GradientSize> gradient_size_from_optimizer(const trace::TraceModel& model, const ReplayGraph& graph);

// A multi-GPU trace's own all-reduces (`--multi-gpu-input`): the bytes of the all-reduce collectives whose
// kernels run in each steady step of `graph`, when every steady step all-reduces the same amount.
std::optional<GradientSize> gradient_size_from_all_reduces(const trace::TraceModel& model, const ReplayGraph& graph);

// Per steady window of `graph`: host time in ranges named like data loading, and in the launching calls.
// Copy calls blocked until their stream reached the copy (pageable memory) are counted apart from launches.
struct HostPipeline {
  double data_ns = 0, launch_ns = 0, copy_wait_ns = 0;
};
HostPipeline host_pipeline(const trace::TraceModel& model, const ReplayGraph& graph);

}  // namespace gpuprof::predict
