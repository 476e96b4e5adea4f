#include "gpuprof/predict/step_timeline.hpp"

#include <algorithm>
#include <cmath>

namespace gpuprof::predict {
namespace {

std::string lane_label(const ReplayGraph& graph, std::size_t stream, const std::string& inserted_label) {
  const auto id = graph.stream_ids[stream];
  return id == trace::kUnknown ? inserted_label : "stream " + std::to_string(id);
}

// The step number of the window whose first work starts the piece: the one steady_pieces measured from.
std::int64_t step_starting_at(const ReplayGraph& graph, const ReplayTimes& times, double start) {
  for (std::size_t o = 0; o < graph.ops.size(); ++o)
    if (graph.ops[o].window != kNone && times.op_start[o] == start)
      return graph.windows[static_cast<std::size_t>(graph.ops[o].window)].step;
  return 0;
}

}  // namespace

StepTimeline step_timeline(const ReplayGraph& graph, const ReplayTimes& times, const std::string& inserted_label) {
  StepTimeline timeline;
  const auto pieces = steady_pieces(graph, times);
  if (pieces.empty()) return timeline;
  const auto piece = pieces.front();
  timeline.step = step_starting_at(graph, times, piece.start);
  timeline.step_ns = std::llround(piece.end - piece.start);
  std::vector<StepLane> lanes(graph.stream_ids.size());
  for (std::size_t o = 0; o < graph.ops.size(); ++o) {
    const double start = times.op_start[o], end = times.op_end[o];
    if (end <= piece.start || start >= piece.end) continue;
    const auto& op = graph.ops[o];
    lanes[static_cast<std::size_t>(op.stream)].events.push_back(
        {std::llround(start - piece.start), std::llround(end - piece.start), op.kind, op.copy_kind});
  }
  for (std::size_t s = 0; s < lanes.size(); ++s) {
    if (lanes[s].events.empty()) continue;
    lanes[s].label = lane_label(graph, s, inserted_label);
    std::stable_sort(lanes[s].events.begin(), lanes[s].events.end(),
                     [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
    timeline.lanes.push_back(std::move(lanes[s]));
  }
  return timeline;
}

}  // namespace gpuprof::predict
