#include "gpuprof/predict/replay_graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "replay_graph_parts.hpp"

namespace gpuprof::predict {
namespace {

std::int32_t busiest_device_with_steps(const analysis::RankAnalysisParts& parts, const std::string& path,
                                       const analysis::AnalysisOptions& options) {
  std::int32_t best = kNone;
  std::int64_t best_busy = -1;
  for (const auto& device : parts.analysis.devices) {
    if (device.source != analysis::WindowSource::steps || device.total.busy_ns <= best_busy) continue;
    best = device.device, best_busy = device.total.busy_ns;
  }
  if (best == kNone)
    throw TraceError::bad_input(path, fmt::format("no training steps found (no range matches the step pattern '{}'): "
                                                  "predict replays steps; use --step-pattern",
                                                  options.step_pattern));
  return best;
}

// Times since the graph's first event, so that doubles hold them to the nanosecond
// (epoch nanoseconds need 61 bits; a double keeps 53).
void rebase(ReplayGraph& graph) {
  std::int64_t origin = INT64_MAX;
  for (const auto& op : graph.ops) origin = std::min(origin, op.start_ns);
  for (const auto& call : graph.calls) origin = std::min(origin, call.start_ns);
  for (const auto& window : graph.windows) origin = std::min(origin, window.start_ns);
  if (origin == INT64_MAX) return;
  graph.origin_ns = origin;
  for (auto& op : graph.ops) op.start_ns -= origin, op.end_ns -= origin;
  for (auto& call : graph.calls) call.start_ns -= origin, call.end_ns -= origin;
  for (auto& window : graph.windows) window.start_ns -= origin, window.end_ns -= origin, window.last_work_ns -= origin;
}

}  // namespace

std::int32_t ReplayGraph::add_stream() {
  stream_ids.push_back(trace::kUnknown);
  return static_cast<std::int32_t>(stream_ids.size() - 1);
}

ReplayGraph build_replay_graph(const trace::TraceModel& model, const analysis::AnalysisOptions& options) {
  if (model.kernels.size() + model.memcpys.size() + model.memsets.size() == 0)
    throw TraceError::bad_input(model.path, "the trace has no GPU work (kernels, copies or memsets) to replay");
  const auto parts = analysis::analyze_rank_parts(model, options);
  ReplayGraph graph;
  graph.path = model.path;
  graph.device = busiest_device_with_steps(parts, model.path, options);
  for (const auto& step : parts.analysis.steps)
    if (step.step.device == graph.device) graph.windows.push_back(step.step);
  const auto devices_with_work = std::count_if(parts.activity.begin(), parts.activity.end(),
                                               [](const auto& activity) { return !activity.empty(); });
  graph.devices_with_work = static_cast<std::int32_t>(devices_with_work);
  if (devices_with_work > 1)
    graph.notices.push_back(fmt::format("the trace has work on {} GPUs; GPU {} (the busiest with steps) is replayed",
                                        devices_with_work, graph.device));
  collect_ops(model, parts.categories, *parts.correlations, graph);
  collect_host_calls(model, *parts.correlations, graph);
  mark_backward(model, graph);
  link_waits(graph);
  rebase(graph);
  return graph;
}

}  // namespace gpuprof::predict
