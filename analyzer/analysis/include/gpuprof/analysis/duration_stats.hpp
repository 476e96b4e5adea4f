#pragma once

#include <cstdint>
#include <span>

namespace gpuprof::analysis {

// nsys-style statistics of a set of durations. The standard deviation is the
// sample one (n − 1), 0 for a single value; the median of an even count is the
// mean of the two middle values.
struct DurationStats {
  std::int64_t instances = 0, total_ns = 0, min_ns = 0, max_ns = 0;
  double avg_ns = 0, med_ns = 0, stddev_ns = 0;
};

// Reorders `durations` (partial sort for the median).
DurationStats duration_stats(std::span<std::int64_t> durations);

}  // namespace gpuprof::analysis
