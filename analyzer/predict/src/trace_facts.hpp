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

// Per steady window of `graph`: host time in ranges named like data loading, and in the launching calls.
struct HostPipeline {
  double data_ns = 0, launch_ns = 0;
};
HostPipeline host_pipeline(const trace::TraceModel& model, const ReplayGraph& graph);

}  // namespace gpuprof::predict
