#pragma once

// The discrete-event replay of a ReplayGraph (DESIGN.md, "Prediction", Replay):
// each stream runs its work in order; a piece of work starts no earlier than
// its launching call plus its launch latency, nor before the work it waits on;
// each host thread keeps the time between its calls and blocks where it blocked,
// until the work it waited for ends in the replay.

#include <vector>

#include "gpuprof/predict/replay_graph.hpp"

namespace gpuprof::predict {

struct ReplayTimes {
  std::vector<double> op_start, op_end;      // per ReplayGraph::ops
  std::vector<double> call_start, call_end;  // per ReplayGraph::calls
};

ReplayTimes replay(const ReplayGraph& graph);
// The times as recorded, for measuring the trace with the same rules as the replay.
ReplayTimes recorded_times(const ReplayGraph& graph);

// Mean steady step period (warm-up windows left out, all windows when every one is warm-up): from each
// window's first work to the next window's first work; a last window without successor ends with its last work.
struct StepPeriod {
  double mean_ns = 0;
  std::int64_t steps = 0;
};
StepPeriod steady_step_period(const ReplayGraph& graph, const ReplayTimes& times);
// The spans steady_step_period averages: each steady window's period (or length, when none has a successor).
struct SteadyPiece {
  double start = 0, end = 0;
};
std::vector<SteadyPiece> steady_pieces(const ReplayGraph& graph, const ReplayTimes& times);

}  // namespace gpuprof::predict
