#pragma once

// Turns projected steps, which may overlap (several host threads annotate the
// same step, or GPU work of step k still runs when step k+1 starts), into
// windows that tile each device's timeline (DESIGN.md, "Step window").

#include <vector>

#include "gpuprof/analysis/steps.hpp"

namespace gpuprof::analysis {

// `steps` holds each step's own GPU extent in start_ns/end_ns. On return they
// are sorted by (device, start), one entry per (device, step number) (entries
// of one number are united), and start_ns/end_ns/last_work_ns describe the
// window. Steps without a number (kNoStepNumber) are never united.
inline constexpr std::int64_t kNoStepNumber = -1;
void tile_step_windows(std::vector<GpuStep>& steps);

}  // namespace gpuprof::analysis
