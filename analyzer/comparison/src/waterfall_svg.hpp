#pragma once

// The step-time waterfall of `gpuprof compare` as an inline SVG for the HTML report.

#include <string>

#include "gpuprof/comparison/run_comparison.hpp"

namespace gpuprof::comparison {

// One row per term: the base step, each term's change floating from the level the
// previous ones reached (red slower, green faster), then the other run's step.
std::string waterfall_svg(const RunComparison& comparison);

}  // namespace gpuprof::comparison
