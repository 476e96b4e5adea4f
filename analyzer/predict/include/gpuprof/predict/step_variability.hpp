#pragma once

// Step-to-step variability of a 1-GPU run: what the synchronization term (the slowest of N replicas,
// σ·√(2 ln N)) is made of. Measured on a trace's own steady steps, or stated from real 1-GPU traces for
// the validation's published rows, whose 1-GPU step is only a published throughput (issue 37: the
// synthetic trace's random jitter is not a measurement).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/predict/replay_graph.hpp"

namespace gpuprof::predict {

// σ of the steady step periods without outlying ones (robust_spread), in ns.
double step_spread_ns(const ReplayGraph& graph);
// The same over the mean steady period: the coefficient of variation; 0 with fewer than two periods.
double step_spread_share(const ReplayGraph& graph);
// The same where the trace has enough steady periods to say anything of a spread (three, as for the stated
// figure below); else none.
std::optional<double> measured_step_spread_share(const ReplayGraph& graph);

// The stated 1-GPU variability: the median σ / step of the project's real single-GPU traces (docs/predict.md,
// "Published scaling"), for a trace too short to measure its own. Shipped so that `predict` needs no data files;
// `CaseValidation.ShippedStepVariabilityIsTheMedianOfTheRealTraces` recomputes it.
inline constexpr double kStatedStepVariability = 0.0305;

struct TraceVariability {
  std::string trace;  // file name
  std::int64_t periods = 0;
  double share = 0;  // coefficient of variation of its steady step periods
};

struct StatedVariability {
  std::vector<TraceVariability> traces;  // every 1-GPU trace with at least three steady periods
  double median_share = 0;               // the figure stated for a step that has no trace
};

// Every single-GPU trace with steady steps among `files` (any format gpuprof reads; a file that is not
// such a trace is passed over: multi-rank traces carry the other ranks' waits, not one GPU's jitter).
StatedVariability measure_step_variability(const std::vector<std::string>& files);

// The 1-GPU traces the project states its variability from: the single-GPU Kineto and HTA traces of
// `external_dir` and the recorded samples of `samples_dir` (those that exist).
std::vector<std::string> variability_sources(const std::string& external_dir, const std::string& samples_dir);

}  // namespace gpuprof::predict
