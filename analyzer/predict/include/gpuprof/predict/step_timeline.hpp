#pragma once

// One steady step of a replay as a timeline the app can draw beside another:
// each stream's work that overlaps the step, in nanoseconds from the step's
// start, the measured 1-GPU step from the recorded times and the predicted
// replica's step from the edited graph's replay (so both come from the same
// graph the prediction's figures do).

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/predict/replay.hpp"

namespace gpuprof::predict {

struct StepEvent {
  std::int64_t start_ns = 0, end_ns = 0;  // from the step's start; work may start before it or end after it
  OpKind kind = OpKind::compute;
  trace::CopyKind copy_kind = trace::CopyKind::unknown;
};

struct StepLane {
  std::string label;              // "stream 7", or what the prediction inserted ("all-reduces (predicted)")
  std::vector<StepEvent> events;  // by start; a stream runs one thing at a time
};

struct StepTimeline {
  std::int64_t step = 0;        // the step's number (analysis::GpuStep::step)
  std::int64_t step_ns = 0;     // this step's period: its first work to the next step's first work
  std::vector<StepLane> lanes;  // streams with work in the step, recorded ones first
};

// The first steady step (steady_pieces' first span) of `graph` at `times`; `inserted_label` names the streams
// the prediction added. Empty (no lanes) when the graph has no steady step.
StepTimeline step_timeline(const ReplayGraph& graph, const ReplayTimes& times, const std::string& inserted_label);

}  // namespace gpuprof::predict
