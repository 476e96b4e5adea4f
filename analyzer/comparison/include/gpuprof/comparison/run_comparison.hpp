#pragma once

// Two runs of one workload side by side (e.g. 1 GPU vs N GPUs): steady-state
// step time, throughput, speedup, scaling efficiency, a waterfall explaining
// the change of step time, and the kernels that changed most. Definitions:
// docs/compare.md.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/job/job_analysis.hpp"

namespace gpuprof::comparison {

struct CompareOptions {
  // Samples per step of the whole job; override meta `global_batch` / `batch_size`.
  std::optional<std::int64_t> base_batch, other_batch;
  std::size_t top_kernels = 20;  // kernel rows kept, largest change first (0: all)
  bool full_names = false;       // kernel rows show whole names instead of short base names
};

// The mean step of one run split into parts that add up to it (nanoseconds).
struct StepTerms {
  double computation_ns = 0;
  std::vector<std::pair<std::string, double>> exposed_copy_ns;  // by copy kind name, kinds of either run
  double exposed_comm_ns = 0;  // exposed communication that is not waiting for peers
  double sync_wait_ns = 0;     // exposed time inside collectives waiting for the last peer
  double batch_gap_ns = 0;     // idle between this step's last GPU work and the next step's first
  // batch_gap_ns by cause ("data loading", "sync", "pageable copy", "host bound"), causes of either run
  std::vector<std::pair<std::string, double>> batch_gap_by_cause;
  double other_ns = 0;         // idle inside the step
  double total() const;
};

struct RunSide {
  std::vector<std::string> inputs;  // rank files
  std::int32_t ranks = 0, gpus = 0;
  std::int64_t samples = 0;          // (rank, device, step) windows averaged
  double step_ns = 0;                // mean steady-state step period
  StepTerms terms;                   // adds up to step_ns
  std::optional<std::int64_t> batch;  // samples per step of the whole job
  std::string batch_source;           // "option", "meta global_batch", "meta batch_size x ranks", or ""
  std::optional<double> samples_per_second;
};

struct WaterfallTerm {
  std::string name;
  double base_ns = 0, other_ns = 0, delta_ns = 0;
};

// Per steady step (the windows the waterfall averages). A family (kernels sharing a short name) adds up its
// variants, listed in `variants` ("name #1", "#2" as short names); a kernel alone has none.
struct KernelChange {
  std::string name, short_name, category;
  double base_ns_per_step = 0, other_ns_per_step = 0, delta_ns_per_step = 0;
  double base_instances_per_step = 0, other_instances_per_step = 0;
  std::vector<KernelChange> variants;
};

struct RunComparison {
  RunSide base, other;
  double delta_step_ns = 0;  // other.step_ns − base.step_ns
  double speedup = 0;
  std::string speedup_basis;  // "throughput" or "step time"
  // Speedup / GPU ratio; only when the runs use different numbers of GPUs.
  std::optional<double> scaling_efficiency;
  std::vector<WaterfallTerm> waterfall;  // deltas add up to delta_step_ns
  std::vector<KernelChange> kernels;     // largest |delta| first
  // What the figures rest on that the traces did not say (e.g. equal global batches): first lines of every format.
  std::vector<std::string> assumptions;
  std::vector<std::string> notices;
  // Data loss recorded in either run's files (collector_stats of severity warning or error), one line each.
  std::vector<std::string> warnings;
  bool full_names = false;
};

RunComparison compare_runs(const job::JobAnalysis& base, const job::JobAnalysis& other,
                           const CompareOptions& options = {});

}  // namespace gpuprof::comparison
