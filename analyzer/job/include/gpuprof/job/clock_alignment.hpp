#pragma once

// Puts every rank on the clock of the reference (lowest) rank. Calibration
// pairs (trace clock ↔ CLOCK_REALTIME) are used when every rank has them and
// each rank's pairs agree; otherwise the end of the same collective (the N-th
// kernel of one name) is matched across ranks, since a collective ends at
// nearly the same instant everywhere.

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/job/rank_summary.hpp"

namespace gpuprof::job {

enum class ClockMethod { single_rank, calibration, collectives, none };
std::string_view to_string(ClockMethod method);

struct RankOffset {
  std::int32_t rank = 0;
  // Added to this rank's timestamps to read them on the reference clock.
  std::int64_t offset_ns = 0;
  ClockMethod method = ClockMethod::none;
  std::int64_t matched = 0;    // calibration pairs or collectives used
  std::int64_t spread_ns = 0;  // max − min of the individual estimates
};

struct ClockAlignment {
  ClockMethod method = ClockMethod::single_rank;
  std::int32_t reference_rank = 0;
  std::vector<RankOffset> offsets;  // one per rank, ascending rank
  std::vector<std::string> notices;

  std::int64_t offset_of(std::int32_t rank) const;
};

// Calibration pairs of one rank disagreeing by more than this are not trusted.
inline constexpr std::int64_t kCalibrationToleranceNs = 1'000'000;

// `ranks` in ascending rank order.
ClockAlignment align_clocks(const std::vector<RankSummary>& ranks);

}  // namespace gpuprof::job
