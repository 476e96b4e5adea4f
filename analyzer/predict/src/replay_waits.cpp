#include <algorithm>
#include <numeric>

#include "replay_graph_parts.hpp"
#include "gpuprof/units/statistics.hpp"

namespace gpuprof::predict {
namespace {

// Clock granularity and rounding: starts this close to an end are "right after" it.
constexpr std::int64_t kToleranceNs = 2'000;

// Previous op on the same stream, per op.
std::vector<std::int32_t> stream_predecessors(const ReplayGraph& graph) {
  std::vector<std::int32_t> last(graph.stream_ids.size(), kNone), previous(graph.ops.size(), kNone);
  for (std::size_t i = 0; i < graph.ops.size(); ++i) {
    auto& slot = last[static_cast<std::size_t>(graph.ops[i].stream)];
    previous[i] = slot;
    slot = static_cast<std::int32_t>(i);
  }
  return previous;
}

double raw_latency(const ReplayGraph& graph, const ReplayOp& op) {
  return static_cast<double>(op.start_ns - graph.calls[static_cast<std::size_t>(op.launch)].start_ns);
}

// The op of another stream that ended last before `op` started: what a late start waited for.
std::int32_t last_other_stream_end(const ReplayGraph& graph, const std::vector<std::int32_t>& by_end,
                                   const ReplayOp& op) {
  auto it = std::upper_bound(by_end.begin(), by_end.end(), op.start_ns + kToleranceNs,
                             [&](std::int64_t t, std::int32_t i) { return t < graph.ops[i].end_ns; });
  for (int checked = 0; it != by_end.begin() && checked < 16; ++checked) {
    --it;
    if (graph.ops[*it].stream != op.stream) return *it;
  }
  return kNone;
}

}  // namespace

void link_waits(ReplayGraph& graph) {
  const auto previous = stream_predecessors(graph);
  std::vector<double> unqueued;
  for (std::size_t i = 0; i < graph.ops.size(); ++i) {
    const auto& op = graph.ops[i];
    const bool queued = previous[i] != kNone && op.start_ns <= graph.ops[previous[i]].end_ns + kToleranceNs;
    if (op.launch != kNone && !queued) unqueued.push_back(raw_latency(graph, op));
  }
  const double typical = std::max(0.0, units::median(unqueued));
  graph.median_launch_latency_ns = typical;
  std::vector<std::int32_t> by_end(graph.ops.size());
  std::iota(by_end.begin(), by_end.end(), 0);
  std::sort(by_end.begin(), by_end.end(), [&](auto a, auto b) { return graph.ops[a].end_ns < graph.ops[b].end_ns; });
  for (std::size_t i = 0; i < graph.ops.size(); ++i) {
    auto& op = graph.ops[i];
    const auto prev = previous[i];
    if (op.launch == kNone) {  // no host call: keep the gap to its stream predecessor (or its recorded start)
      if (prev != kNone) op.after = prev, op.after_lag_ns = static_cast<double>(op.start_ns - graph.ops[prev].end_ns);
      continue;
    }
    const double raw = raw_latency(graph, op);
    const bool queued = prev != kNone && op.start_ns <= graph.ops[prev].end_ns + kToleranceNs;
    if (queued || raw <= typical + kToleranceNs) {
      op.launch_latency_ns = std::clamp(raw, 0.0, std::max(typical, 0.0));
      continue;
    }
    // What the late start waited for: the work that ended last before it, on another stream or its own (a
    // copy engine can start a few microseconds after its stream predecessor, beyond "queued").
    auto waited = last_other_stream_end(graph, by_end, op);
    if (prev != kNone && (waited == kNone || graph.ops[prev].end_ns > graph.ops[waited].end_ns)) waited = prev;
    const double launch_ready = static_cast<double>(graph.calls[op.launch].start_ns) + typical;
    if (waited != kNone && static_cast<double>(graph.ops[waited].end_ns + kToleranceNs) >= launch_ready) {
      op.after = waited;
      op.after_lag_ns = std::max<double>(0.0, static_cast<double>(op.start_ns - graph.ops[waited].end_ns));
      op.launch_latency_ns = typical;
    } else {
      op.launch_latency_ns = raw;  // the start waited on something the trace does not show: keep the delay
    }
  }
}

}  // namespace gpuprof::predict
