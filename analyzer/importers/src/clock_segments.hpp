#pragma once

// A host-to-GPU clock offset fitted piecewise (DESIGN.md issue 28, docs/report.md
// "Foreign traces: nvprof"). Two kinds of evidence bound the offset that puts GPU
// times on the host clock: a launch precedes its GPU work (offset >= call start −
// GPU start), and a synchronous call returns after the work it waited for (offset
// <= call end − GPU end). A host clock that jumps mid-run makes the bounds of
// the whole trace contradict each other; walked in host-time order, a new segment
// starts where they stop fitting one offset.

#include <cstdint>
#include <limits>
#include <vector>

namespace gpuprof::importers {

struct ClockBound {
  std::int64_t host_ns = 0;  // when the host saw it: orders the bounds
  std::int64_t gpu_ns = 0;   // the GPU time it concerns: places segment borders on the GPU clock
  std::int64_t value = 0;    // offset >= value (lower) or offset <= value (upper)
  bool upper = false;
};

struct ClockSegment {
  std::int64_t gpu_start_ns = std::numeric_limits<std::int64_t>::min();  // first GPU time of the segment
  std::int64_t lower = std::numeric_limits<std::int64_t>::min(), upper = std::numeric_limits<std::int64_t>::max();
  std::int64_t offset_ns = 0;  // the value in [lower, upper] nearest 0: a clock that agrees is left alone
  std::int64_t bounds = 0;
};

struct ClockFit {
  std::vector<ClockSegment> segments;  // by GPU start; the first starts at the lowest time
  // Bounds broken by the one offset that fits most of them (the constant shift) and by the segments' offsets
  // applied by GPU time, as the rows are moved.
  std::int64_t violations_constant = 0, violations_piecewise = 0;
};

ClockFit fit_clock_segments(std::vector<ClockBound> bounds);

// The offset of the segment that holds `gpu_ns` (segments by GPU start, as fit_clock_segments gives them).
std::int64_t offset_at(const std::vector<ClockSegment>& segments, std::int64_t gpu_ns);

}  // namespace gpuprof::importers
