#pragma once

// --cuda-graphs: whether a run captures its training step once into a CUDA graph and replays it,
// which steps measure, capture and replay, and the `auto` decision from the warm-up's own
// measurement. No CUDA here: the trainer measures and captures, this decides (CPU-tested).

#include <cstddef>
#include <string>
#include <vector>

#include "options.hpp"
#include "training_plan.hpp"

namespace gpuprof::workloads {

enum class CudaGraphMode { off, on, automatic };

CudaGraphMode parse_cuda_graph_mode(const std::string& name);

// Why this run cannot capture its step (empty when it can): only single-GPU runs of models whose
// step touches no other GPU and no host copy are captured.
std::string cuda_graph_ineligibility(const WorkloadOptions& options, const TrainingPlan& plan);

// What a training step does in a run that may use CUDA graphs.
enum class StepRole {
  eager,             // launched call by call, as without graphs
  measure_launched,  // eager, timed: GPU span while the host launches, and the host's launch time
  measure_queued,    // eager, timed with the GPU held until the whole step is queued: the GPU's own time
  capture,           // captured into a graph (not run), then the graph is launched: this step's work
  replay,            // the captured graph launched again
};

// The steps of a run, from its mode and warm-up. `auto` measures pairs of warm-up steps from step 1
// (step 0 pays first-call costs) and captures at the last warm-up step, so timed steps are replays;
// `on` captures at the last warm-up step (step 1 at the earliest: one eager step first).
struct CudaGraphSchedule {
  int first_measured = -1;  // first step of the measured pairs; -1: none
  int measured_pairs = 0;
  int capture_step = -1;  // -1: no capture
  std::string not_possible;  // why nothing is captured though the mode asked for it (empty otherwise)

  StepRole role(int step) const;
};

inline constexpr int minimum_warmup_for_auto = 4;  // step 0, one pair, the capture step

CudaGraphSchedule plan_cuda_graph_steps(CudaGraphMode mode, const std::string& ineligible, int warmup_steps,
                                        int total_steps);

// One measured pair. Launched: the GPU's span from the step's first to last work while the host
// launches it call by call (the GPU starts the step with nothing queued), and the host's time to
// launch it. Queued: the same step's GPU span when all of it was queued before the GPU could start.
struct StepMeasurement {
  double launched_gpu_seconds = 0.0;
  double host_launch_seconds = 0.0;
  double queued_gpu_seconds = 0.0;
  bool valid = true;  // false: the queued step could not be held (a call in the step waited for the GPU)
};

struct CudaGraphDecision {
  bool capture = false;
  std::string reason;  // for the run summary: the measured figures and the rule
  double launch_idle_share = 0.0;  // auto: median idle over median launched span
};

// A step is launch-bound when the GPU idles at least this share of it waiting for launches.
inline constexpr double launch_bound_idle_share = 0.10;

CudaGraphDecision decide_cuda_graphs(CudaGraphMode mode, const CudaGraphSchedule& schedule,
                                     const std::vector<StepMeasurement>& measurements);

// An address a captured step has baked in (a workspace, a reserve space). If one has moved since
// the capture (a layer fell back and reallocated), the graph must be captured again.
struct GraphBinding {
  std::string name;
  const void* address = nullptr;
  std::size_t bytes = 0;
};

// Names of the bindings that differ between the capture and now (moved, resized, added or gone).
std::vector<std::string> moved_bindings(const std::vector<GraphBinding>& captured,
                                        const std::vector<GraphBinding>& now);

}  // namespace gpuprof::workloads
