#include "clock_segments.hpp"

#include <algorithm>

namespace gpuprof::importers {
namespace {

// Adding the bound leaves some offset that meets every bound of the segment.
bool fits(const ClockSegment& segment, const ClockBound& bound) {
  return bound.upper ? segment.lower <= bound.value : bound.value <= segment.upper;
}

void add(ClockSegment& segment, const ClockBound& bound) {
  if (bound.upper) segment.upper = std::min(segment.upper, bound.value);
  else segment.lower = std::max(segment.lower, bound.value);
  segment.gpu_start_ns = segment.bounds == 0 ? bound.gpu_ns : std::min(segment.gpu_start_ns, bound.gpu_ns);
  ++segment.bounds;
}

bool broken(const ClockBound& bound, std::int64_t offset) {
  return bound.upper ? offset > bound.value : offset < bound.value;
}

}  // namespace

std::int64_t offset_at(const std::vector<ClockSegment>& segments, std::int64_t gpu_ns) {
  std::int64_t offset = segments.empty() ? 0 : segments.front().offset_ns;
  for (const auto& segment : segments) {
    if (segment.gpu_start_ns <= gpu_ns) offset = segment.offset_ns;
  }
  return offset;
}

ClockFit fit_clock_segments(std::vector<ClockBound> bounds) {
  ClockFit fit;
  std::stable_sort(bounds.begin(), bounds.end(), [](const ClockBound& a, const ClockBound& b) { return a.host_ns < b.host_ns; });
  ClockSegment whole, current;
  for (const auto& bound : bounds) {
    add(whole, bound);
    if (current.bounds > 0 && !fits(current, bound)) {
      fit.segments.push_back(current);
      current = ClockSegment{};
    }
    add(current, bound);
  }
  if (current.bounds > 0) fit.segments.push_back(current);
  for (auto& segment : fit.segments) segment.offset_ns = std::clamp(std::int64_t{0}, segment.lower, segment.upper);
  std::stable_sort(fit.segments.begin(), fit.segments.end(),
                   [](const ClockSegment& a, const ClockSegment& b) { return a.gpu_start_ns < b.gpu_start_ns; });
  // The constant shift the importer applied before: the least that puts every launch before its work.
  const auto constant = whole.bounds > 0 && whole.lower > 0 ? whole.lower : 0;
  for (const auto& bound : bounds) {
    fit.violations_constant += broken(bound, constant) ? 1 : 0;
    fit.violations_piecewise += broken(bound, offset_at(fit.segments, bound.gpu_ns)) ? 1 : 0;
  }
  return fit;
}

}  // namespace gpuprof::importers
