#pragma once

// Which kernels changed between two runs: time and instances per steady GPU-step,
// over the windows the waterfall averages (docs/compare.md, "Kernel diff").

#include <vector>

#include "gpuprof/comparison/run_comparison.hpp"

namespace gpuprof::comparison {

// Largest |Δ time per GPU-step| first, ties by name; `top` > 0 keeps that many rows (a family is one).
std::vector<KernelChange> diff_kernels(const job::JobAnalysis& base, const job::JobAnalysis& other, std::size_t top);

}  // namespace gpuprof::comparison
