#pragma once

// Batch gaps (DESIGN.md, "Batch gap"): the tail of step k's window, from the
// last work of step k to the first work of step k+1 on a device, with the reason the host
// gives for it. The cause is whichever host activity covers most of the gap
// (ties in the order sync, pageable_copy, data_loading); host_bound when the
// host recorded none of them, i.e. it was busy launching or in Python.

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/time_breakdown.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

enum class GapCause { sync, pageable_copy, data_loading, host_bound };
std::string_view to_string(GapCause cause);

struct BatchGap {
  std::int32_t device = 0;
  std::int64_t after_step = 0;
  std::int64_t start_ns = 0, end_ns = 0;
  GapCause cause = GapCause::host_bound;
  bool after_warmup = false;  // the step before the gap is a warm-up step
  std::int64_t idle_ns = 0;   // the idle part of [start, end): the step's batch_gap_ns
};

// True for annotation names that mean "loading the next batch".
bool is_data_loading_name(std::string_view name);

// `steps` sorted by (device, start) as compute_breakdown returns them; one gap per step with a batch gap
// that another step follows.
std::vector<BatchGap> find_batch_gaps(const trace::TraceModel& model, const std::vector<StepBreakdown>& steps,
                                      const CorrelationIndex& correlations);

}  // namespace gpuprof::analysis
