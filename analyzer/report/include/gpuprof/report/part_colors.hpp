#pragma once

// The colours of the parts of a step period, one set for the HTML report's
// charts and the desktop app's breakdown chart, so a user who reads one knows
// the other.

namespace gpuprof::report::colors {

inline constexpr const char* kComputation = "#4e79a7";
inline constexpr const char* kExposedComm = "#59a14f";
inline constexpr const char* kExposedMemcpy = "#b07aa1";
inline constexpr const char* kIdleInSteps = "#d9d9d9";
inline constexpr const char* kBatchGaps = "#e15759";

}  // namespace gpuprof::report::colors
