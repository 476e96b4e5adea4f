#pragma once

// Kernel time and instances inside the windows per-step figures are averaged
// over (step_basis), so that compare's kernel rows are per steady step like its
// waterfall, not whole-trace totals over every step, warm-up included.

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/analysis/classification.hpp"
#include "gpuprof/job/rank_summary.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::job {

struct StepKernels {
  std::int64_t windows = 0;        // the basis windows, over every device
  std::vector<StepKernel> kernels;  // by name; a kernel belongs to the window its start falls in
};

StepKernels step_kernels(const trace::TraceModel& model, const std::vector<analysis::KernelCategory>& categories,
                         const std::vector<WindowSample>& windows);

}  // namespace gpuprof::job
