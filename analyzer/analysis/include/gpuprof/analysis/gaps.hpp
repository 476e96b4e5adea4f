#pragma once

// Batch gaps (DESIGN.md, "Batch gap"): GPU idle time between the last work of
// step k and the first work of step k+1 on a device, with the reason the host
// gives for it. The cause is whichever host activity covers most of the gap
// (ties in the order sync, pageable_copy, data_loading); host_bound when the
// host recorded none of them, i.e. it was busy launching or in Python.

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/steps.hpp"
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
};

// True for annotation names that mean "loading the next batch".
bool is_data_loading_name(std::string_view name);

// `steps` sorted by (device, start) as find_steps returns them.
std::vector<BatchGap> find_batch_gaps(const trace::TraceModel& model, const std::vector<GpuStep>& steps,
                                      const CorrelationIndex& correlations);

}  // namespace gpuprof::analysis
