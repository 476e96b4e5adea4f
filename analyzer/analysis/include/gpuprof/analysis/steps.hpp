#pragma once

// Training steps per device (DESIGN.md, "Step" and "Step window"). Host step
// ranges are projected onto each GPU through correlation ids: from the first
// start to the last end of the GPU work launched by API calls inside the host
// range. GPU annotations (gpu_user_annotation) are used instead where they hold
// at least 90 % of that work. The steps are then turned into windows that tile
// the device's timeline.

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/analysis/analysis_options.hpp"
#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

struct GpuStep {
  std::int32_t device = 0;
  std::int64_t step = 0;               // number from the name, or the ordinal when the name has none
  // The window [start, end): from the step's first GPU work to the next step's first GPU work (the last
  // step ends with its last GPU work). last_work_ns is the end of the step's own GPU work, clipped to the
  // window; [last_work, end) is the batch gap.
  std::int64_t start_ns = 0, end_ns = 0, last_work_ns = 0;
  bool warmup = false;
  bool from_gpu_annotation = false;
  std::int64_t host_thread = trace::kUnknown;  // thread of the host range (kUnknown for GPU annotations)
};

// GPU-side step annotations are used only when they hold this share of the GPU work their host steps
// launched, from its first start to its last end (DESIGN.md, "Step"): ROCm traces truncate them.
inline constexpr double kAnnotationCoverage = 0.9;

// A device whose GPU-side annotations hold too little of that work, so its host steps are projected instead.
struct RejectedAnnotations {
  std::int32_t device = 0;
  // Of the span of GPU work the host steps launched on it (first start to last end), the share inside its
  // annotations of the same steps.
  double coverage = 0;
};

struct StepDetection {
  std::vector<GpuStep> steps;  // sorted by (device, start); windows of one device never overlap
  bool pattern_matched = false;  // some range name matched the pattern
  // Per StringId: a range name that matches the step pattern. A step annotation spans the whole step, so
  // it says nothing about what the host was doing inside it (idle causes leave it out).
  std::vector<bool> step_names;
  std::vector<RejectedAnnotations> rejected;
};

// Throws TraceError::bad_input when the pattern is not a valid regex.
StepDetection find_steps(const trace::TraceModel& model, const AnalysisOptions& options,
                         const CorrelationIndex& correlations);

}  // namespace gpuprof::analysis
