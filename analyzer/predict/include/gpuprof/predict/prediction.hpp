#pragma once

// `gpuprof predict`: the step time of one replica on N GPUs, from 1-GPU traces,
// by editing the replay of the 1-GPU steps (DESIGN.md, "Prediction"). The terms
// add up: predicted step - measured 1-GPU step = per-GPU work saved + exposed
// collectives + copies + synchronization + host pipeline (0 here: shown as a risk).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/predict/band_high.hpp"
#include "gpuprof/predict/centre_loss.hpp"
#include "gpuprof/predict/gpu_topology.hpp"
#include "gpuprof/predict/link_profile.hpp"
#include "gpuprof/predict/step_timeline.hpp"
#include "gpuprof/predict/strategy_edits.hpp"
#include "gpuprof/predict/sync_model.hpp"
#include "gpuprof/predict/verdict_lean.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::predict {

enum class Scaling { weak, strong };

struct PredictOptions {
  std::vector<std::int32_t> gpus;
  Strategy strategy = Strategy::data_parallel;
  AllReduceSchedule schedule = AllReduceSchedule::bucketed;
  Scaling scaling = Scaling::weak;
  LinkProfile link;                     // name empty: chosen from the trace's device name (link_choice.hpp)
  std::vector<std::string> link_files;  // with the link chosen from the device: replace its all-reduce tables
  std::optional<std::int64_t> gradient_bytes;  // --grad-bytes: used when the trace does not say
  std::optional<std::int64_t> split_bytes;     // placement: bytes crossing each split point per step
  // --sync (data-parallel): how the replicas exchange gradients. Without it: a ring all-reduce, and on links
  // without peer access the band's slow end covers the parameter servers too (a 1-GPU trace cannot tell).
  std::optional<SyncStrategy> sync;
  // --topology: the machine's `nvidia-smi topo -m`; a job on N GPUs gets GPUs 0 to N-1 of it.
  std::optional<GpuTopology> topology;
  analysis::AnalysisOptions analysis;
  // The 1-GPU trace has collectives or several GPUs and the user says that is intended (its communication
  // stays in the replay); otherwise such a trace is refused.
  bool accept_multi_gpu_trace = false;
  std::string option_prefix;  // "predict-" in a study: error lines name the options as the user typed them
  // The 1-GPU step-to-step spread as a share of the step where the trace's own steps cannot measure it (the
  // validation's published rows, whose step is a synthetic trace of a published throughput: its jitter is
  // synth's, not a measurement); unset: the trace's steady step periods.
  std::optional<double> stated_step_spread;
  // The centre's two published figures (centre_loss.hpp); unset: kPublishedCentreLoss. The validation sets
  // them to a calibration on other sources' runs.
  std::optional<CentreLoss> centre_loss;
  // Also keep the first steady step as recorded and as replayed per GPU count (the app draws them).
  bool step_timelines = false;
};

struct Term {
  std::string name;
  double ns = 0;  // per step; negative saves time
};

// Will N GPUs be faster than one? Decided only where the whole band says so.
enum class Call { faster, no_faster, uncertain };

struct GpuCountPrediction {
  std::int32_t gpus = 1;
  double step_ns = 0, low_ns = 0, high_ns = 0;
  CentreParts centre;  // step_ns in its parts: step_ns = centre.at(the centre loss used)
  BandHigh band_high;  // high_ns in its parts: high_ns = band_high.at(replica_loss_for(link.over_pcie))
  double speedup = 0, efficiency = 0;  // throughput against the 1-GPU run
  double slow_end_speedup = 0, fast_end_speedup = 0;  // the same at the band's slow and fast ends
  Call call = Call::faster;  // uncertain where the band straddles 1x
  // The centre's side of one GPU, or too close to call within Prediction::step_variability (verdict_lean.hpp):
  // what a user gets beside an uncertain call; set on every row.
  Lean lean = Lean::too_close;
  std::vector<Term> terms;             // largest magnitude first; they add up to step_ns - measured
  std::string verdict;
  StepTimeline replayed_step;  // with PredictOptions::step_timelines: one replica's step, from the nominal replay
};

struct Prediction {
  std::string trace, per_gpu_trace;  // the 1-GPU trace; the trace at the per-GPU batch (strong scaling)
  Strategy strategy = Strategy::data_parallel;
  Scaling scaling = Scaling::weak;
  std::string link_name, link_source;
  // data-parallel: the synchronisation at the centre ("ps-gpu"; "ring-allreduce (assumed)" without --sync);
  // the topology file, if any.
  std::string sync, topology;
  std::int64_t gradient_bytes = 0;
  std::string gradient_source;
  double measured_step_ns = 0, replayed_step_ns = 0;
  std::int64_t steady_steps = 0;
  // The 1-GPU step's σ over its mean that a lean is judged against: PredictOptions::stated_step_spread, else the
  // trace's own steady periods (three at least), else kStatedStepVariability (step_variability.hpp).
  double step_variability = 0;
  double host_data_ns = 0, host_launch_ns = 0;  // per step, on the 1-GPU host: the shared-host risk
  double host_copy_wait_ns = 0;  // per step: copy calls (pageable memory) blocked until the GPU reached the copy
  std::vector<GpuCountPrediction> rows;
  std::vector<std::string> notes;
  StepTimeline measured_step;  // with PredictOptions::step_timelines: the same step as recorded
};

// `models`: the 1-GPU trace, and optionally the trace at the per-GPU batch (strong scaling).
// Throws TraceError::bad_input (naming the file) for no steps, no GPU work, no gradient size or N < 1.
Prediction predict(const std::vector<const trace::TraceModel*>& models, const PredictOptions& options);

std::string_view to_string(Strategy strategy);
std::string_view to_string(Scaling scaling);
std::string_view to_string(Call call);  // "faster", "no faster", "uncertain"

}  // namespace gpuprof::predict
