#pragma once

// What the job keeps of one rank once its trace is freed: the per-rank analysis
// plus the little extra that cross-rank analyses need (collectives, per-window
// copy exposure by kind). Its size grows with steps and collectives, not events.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/analysis/interval_set.hpp"
#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/job/clock_calibration.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::job {

// One communication kernel. `ordinal` counts kernels of the same name on the
// same device in start order: the N-th all-reduce of every rank is the same
// collective.
struct Collective {
  std::string name;
  std::int32_t device = 0;
  std::int64_t ordinal = 0;
  std::int64_t start_ns = 0, end_ns = 0;
  analysis::IntervalSet exposed;  // the parts of the kernel not under computation
  std::int64_t stream = trace::kUnknown;  // where a viewer draws it (the job's Chrome trace links them)
};

// Copy kinds by code (trace::CopyKind), for per-kind arrays.
inline constexpr std::size_t kCopyKinds = 6;

// One analysis window of one device: a step, or the activity span when the
// trace has no steps (then `step` is 0 and `from_steps` false).
struct WindowSample {
  std::int32_t device = 0;
  std::int64_t step = 0;
  bool warmup = false, from_steps = false;
  std::int64_t start_ns = 0, end_ns = 0;
  analysis::Breakdown breakdown;
  // Exposed copy time per kind; kinds share time by code order (see docs/compare.md),
  // so the entries add up to breakdown.exposed_memcpy_ns.
  std::array<std::int64_t, kCopyKinds> exposed_copy_ns{};
  // Cause of the batch gap that ends the window (breakdown.batch_gap_ns), when it has one.
  std::optional<idle::IdleCause> gap_cause;
};

// One kernel name's time inside the windows per-step figures average over (step_kernels.hpp).
struct StepKernel {
  std::string name, short_name, category;  // readable full name, short base name, computation/communication
  std::int64_t total_ns = 0, instances = 0;
};

struct RankSummary {
  std::string input;       // as the user named it
  std::string trace_path;  // the gpuprof trace that was analysed
  analysis::RankAnalysis analysis;
  std::vector<Collective> collectives;  // sorted by (device, start)
  std::vector<WindowSample> windows;    // sorted by (device, start)
  std::vector<CalibrationPair> calibration;
  std::optional<std::int64_t> global_batch, batch_size;  // from meta, when recorded
  // What the rank's host did (every issuing thread, every launch): explains a straggler's lateness.
  idle::DeviceHostCauses host_activity;
  // Kernels inside the windows per-step figures average over (step_kernels.hpp), filled by summarize_rank.
  std::int64_t step_basis_windows = 0;
  std::vector<StepKernel> step_kernels;
  std::vector<std::string> gpu_models;  // the names of the trace's devices, where it gives them
  std::optional<std::int32_t> world_size;  // ranks in the whole job, where the trace says
};

// Runs analyze_rank and collects the extra summaries from the same model.
RankSummary summarize_rank(const trace::TraceModel& model, const analysis::AnalysisOptions& options,
                           std::int32_t rank);

// summarize_rank and what its analysis built on the way that a caller keeping the model also needs: the
// desktop app draws kernels by these categories and follows launches through this index, so it shows
// what the reports computed and does not build either a second time.
struct RankSummaryParts {
  RankSummary summary;
  std::vector<analysis::KernelCategory> categories;  // per StringId
  std::unique_ptr<analysis::CorrelationIndex> correlations;
};
RankSummaryParts summarize_rank_parts(const trace::TraceModel& model, const analysis::AnalysisOptions& options,
                                      std::int32_t rank);

}  // namespace gpuprof::job
