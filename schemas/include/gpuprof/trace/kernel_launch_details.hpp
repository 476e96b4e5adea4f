#pragma once

// The kernels' grid and block, read after the rest of the model: a model loaded
// without launch details (LoadOptions) shows a first timeline sooner, and the
// app reads these on a worker once it is drawn (docs/app.md, "Opening").

#include <string>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::trace {

struct KernelLaunchDetails {
  // One per kernel of the model, in its order; both empty when `problem` says why none were read.
  std::vector<Dim3> grid, block;
  std::string problem;
};

// Reads the grid and block of every kernel of `model`, which load_trace_model read from `path` without launch
// details, with the rules a load with them applies: the same values in the same rows as
// load_trace_model(path) gives. All or nothing: when a kernel's launch details break those rules (that load
// would leave the kernel out) or the file no longer holds the model's kernels, `problem` says so and nothing
// is read. Throws TraceError when the file cannot be read.
KernelLaunchDetails load_kernel_launch_details(const std::string& path, const TraceModel& model);

}  // namespace gpuprof::trace
