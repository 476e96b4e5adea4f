#pragma once

// The steps of build_replay_graph, one file each.

#include <vector>

#include "gpuprof/analysis/classification.hpp"
#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/predict/replay_graph.hpp"

namespace gpuprof::predict {

// The device's kernels, copies and memsets, with their launching calls' rows in `launch` (API rows for now).
void collect_ops(const trace::TraceModel& model, const std::vector<analysis::KernelCategory>& categories,
                 const analysis::CorrelationIndex& correlations, ReplayGraph& graph);
// The calls of the threads that launch the device's work; turns ops' `launch` into call indices and finds
// what each blocking call waited for.
void collect_host_calls(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations,
                        ReplayGraph& graph);
// Ops launched inside host ranges named like "backward" (autograd's "...Backward0" included).
void mark_backward(const trace::TraceModel& model, ReplayGraph& graph);
// Launch latencies, and the cross-stream waits a late start shows.
void link_waits(ReplayGraph& graph);

}  // namespace gpuprof::predict
