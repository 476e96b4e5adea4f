#pragma once

// How fast the host feeds each GPU: delay from the launch API call to the
// kernel start, and launches per second while the host was launching.

#include <cstdint>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/duration_stats.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

struct LaunchStats {
  std::int32_t device = 0;
  DurationStats delay;  // kernel start − API call start, per launch (kernel_launch.hpp)
  std::int64_t starts_before_call = 0;  // kernels left out: they start before their call (clocks disagree)
  std::int64_t graph_kernels = 0;  // kernels left out: a CUDA graph launch ran them (kernel_launch.hpp)
  double launches_per_second = 0;  // launches over the span of their API call starts; 0 for fewer than 2
};

std::vector<LaunchStats> analyze_launches(const trace::TraceModel& model, const CorrelationIndex& correlations);

}  // namespace gpuprof::analysis
