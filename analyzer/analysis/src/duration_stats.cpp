#include "gpuprof/analysis/duration_stats.hpp"
#include "gpuprof/units/statistics.hpp"
#include "gpuprof/units/units.hpp"

#include <algorithm>
#include <cmath>

namespace gpuprof::analysis {
namespace {

// The largest double below 2^63: a time near INT64_MAX read back into int64
// for display must not round up to 2^63, which does not fit (it came out as
// INT64_MIN, a negative median).
constexpr double kLargestTime = 9223372036854774784.0;

}  // namespace

DurationStats duration_stats(std::span<std::int64_t> durations) {
  DurationStats stats;
  if (durations.empty()) return stats;
  stats.instances = static_cast<std::int64_t>(durations.size());
  stats.min_ns = durations.front();
  stats.max_ns = durations.front();
  for (const auto value : durations) {
    units::add_saturating(stats.total_ns, value);
    stats.min_ns = std::min(stats.min_ns, value);
    stats.max_ns = std::max(stats.max_ns, value);
  }
  const double count = static_cast<double>(durations.size());
  stats.avg_ns = static_cast<double>(stats.total_ns) / count;
  double squares = 0;
  for (const auto value : durations) squares += (static_cast<double>(value) - stats.avg_ns) * (static_cast<double>(value) - stats.avg_ns);
  stats.stddev_ns = durations.size() > 1 ? std::sqrt(squares / (count - 1)) : 0.0;
  stats.med_ns = units::median(durations, stats.min_ns, stats.max_ns);
  stats.avg_ns = std::min(stats.avg_ns, kLargestTime);
  stats.med_ns = std::min(stats.med_ns, kLargestTime);
  stats.stddev_ns = std::min(stats.stddev_ns, kLargestTime);
  return stats;
}

}  // namespace gpuprof::analysis
