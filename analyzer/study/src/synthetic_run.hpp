#pragma once

// The run a synthetic sweep records for one configuration: a `gpuprof synth`
// trace shaped by the configuration, so that the study report can be seen and
// tested without a GPU. Kernels last longer with the batch each GPU gets, and
// more GPUs add an all-reduce, so scaling behaves like a small model's.

#include <string>

#include "gpuprof/study/study_data.hpp"
#include "gpuprof/study/sweep_grid.hpp"

namespace gpuprof::study {

// Writes the trace to `trace_path`; the result's times come from the trace.
RunResult write_synthetic_run(const SweepSettings& settings, const Configuration& configuration,
                              std::int64_t repeat, const std::string& trace_path);

}  // namespace gpuprof::study
