#pragma once

// Synthetic 1-GPU traces of a given step time for the validation cases, and
// predictions from them.

#include <cstdint>
#include <optional>
#include <string>

#include "gpuprof/predict/prediction.hpp"

namespace gpuprof::predict {

// A 1-GPU training trace whose steady steps last about `step_ns` (400 kernels a step, so that the
// step-to-step spread stays near 1 %, as in steady real training).
void write_step_trace(const std::string& path, double step_ns, std::uint64_t seed);

// predict() on the trace files (the second one optional).
Prediction predict_files(const std::string& trace, const std::optional<std::string>& per_gpu_trace,
                         const PredictOptions& options);

}  // namespace gpuprof::predict
