#pragma once

// Beside a verdict the band leaves open (issue 37): the side of one GPU the centre is on, so that a user who must
// choose still gets the model's best estimate, named as an estimate, not as the verdict. Where the centre is
// closer to one GPU than the 1-GPU run's own step-to-step variability, it takes no side: a difference that small
// is one the user's own timing of the run would not tell apart from noise.

#include <string_view>

namespace gpuprof::predict {

enum class Lean { faster, no_faster, too_close };

// `speedup`: the centre's throughput on N GPUs over one GPU's; `variability`: the 1-GPU step's σ over its mean
// (step_variability.hpp). Too close where the centre's time per sample, 1 / speedup of one GPU's, is within
// `variability` of it (also where the speedup is not a finite positive figure); else the centre's side.
Lean lean_of(double speedup, double variability);

std::string_view to_string(Lean lean);  // "faster", "no faster", "too close to call"

}  // namespace gpuprof::predict
