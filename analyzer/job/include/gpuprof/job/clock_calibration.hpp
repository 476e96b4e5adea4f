#pragma once

// The meta key `clock_calibration`: pairs of [gpu_timestamp_ns, clock_realtime_ns].

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuprof::job {

struct CalibrationPair {
  std::int64_t trace_ns = 0, realtime_ns = 0;
};

// Empty for missing or malformed text: a rank without usable pairs is aligned
// by other means, never refused.
std::vector<CalibrationPair> parse_clock_calibration(const std::optional<std::string>& text);

}  // namespace gpuprof::job
