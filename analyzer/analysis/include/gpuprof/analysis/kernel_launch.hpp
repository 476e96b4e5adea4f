#pragma once

// The one definition of a launch that every launch table uses (the `launches`
// section's per-device and per-kernel tables and the launch queue): a kernel
// whose launching API call is in the trace, with latency kernel start − call
// start. A kernel that starts before its call can only come from clocks that
// disagree; it is not a launch but a counted problem, so no table mixes it in.
// A kernel that a CUDA graph ran is not a launch either: its call is the graph's launch
// (cudaGraphLaunch, cuGraphLaunch), shared by every node, so "call start to kernel start"
// would be the time spent behind the graph's earlier nodes. It is known by that call's name,
// not by the kernel's graph node id, which a report's loading leaves out and imports lack.
// Such kernels are counted apart; the graph launch calls themselves are in the API table.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

enum class LaunchStatus { counted, no_call, starts_before_call, graph_node };

struct KernelLaunch {
  LaunchStatus status = LaunchStatus::no_call;
  std::int64_t call_start_ns = 0;  // when counted
  std::int64_t latency_ns = 0;     // kernel start − call start, never negative when counted
};

inline bool is_graph_launch(std::string_view call) {
  return call.starts_with("cudaGraphLaunch") || call.starts_with("cuGraphLaunch");
}

// The ids of the model's strings that name a graph launch call (none, or a few entry points),
// found once per table so that each kernel compares ids, not names.
class GraphLaunchNames {
 public:
  explicit GraphLaunchNames(const trace::TraceModel& model) {
    for (std::size_t id = 0; id < model.strings.size(); ++id) {
      if (is_graph_launch(model.strings[id])) ids_.push_back(static_cast<trace::StringId>(id));
    }
  }
  bool contains(trace::StringId id) const { return std::find(ids_.begin(), ids_.end(), id) != ids_.end(); }

 private:
  std::vector<trace::StringId> ids_;
};

inline KernelLaunch kernel_launch(const trace::TraceModel& model, const CorrelationIndex& correlations,
                                  const GraphLaunchNames& graph_launches, std::size_t kernel_row) {
  const auto api_row = correlations.api_row(model.kernels.correlation_id[kernel_row]);
  if (api_row == CorrelationIndex::kNone) return {};
  const auto call_start = model.api_calls.start_ns[api_row];
  if (graph_launches.contains(model.api_calls.name[api_row])) return {LaunchStatus::graph_node, call_start, 0};
  const auto latency = model.kernels.start_ns[kernel_row] - call_start;
  if (latency < 0) return {LaunchStatus::starts_before_call, call_start, latency};
  return {LaunchStatus::counted, call_start, latency};
}

}  // namespace gpuprof::analysis
