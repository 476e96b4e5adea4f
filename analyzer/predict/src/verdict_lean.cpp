#include "gpuprof/predict/verdict_lean.hpp"

#include <cmath>

namespace gpuprof::predict {

Lean lean_of(double speedup, double variability) {
  if (!std::isfinite(speedup) || speedup <= 0) return Lean::too_close;
  // The variability is a share of the step time, so the comparison is in time per sample, not in throughput.
  const double time_ratio = 1.0 / speedup;
  if (std::abs(time_ratio - 1.0) <= variability) return Lean::too_close;
  return speedup > 1.0 ? Lean::faster : Lean::no_faster;
}

std::string_view to_string(Lean lean) {
  switch (lean) {
    case Lean::faster:
      return "faster";
    case Lean::no_faster:
      return "no faster";
    case Lean::too_close:
      return "too close to call";
  }
  return "?";
}

}  // namespace gpuprof::predict
