#pragma once

// Batch gaps of one device summarised (count, total, mean, percentiles, by
// cause), so a report can show a few lines per device instead of one per gap.

#include <array>
#include <cstdint>
#include <vector>

#include "gpuprof/rank/gaps.hpp"

namespace gpuprof::analysis {

inline constexpr std::size_t kGapCauses = idle::kIdleLabels;  // IdleCause values, in declaration order

struct GapCauseTotal {
  IdleCause cause = IdleCause::unrecorded;
  std::int64_t count = 0, idle_ns = 0;
  std::int64_t covered_ns = 0;  // of idle_ns, the time the cause itself covers (mixed: each gap's largest cause)
  double coverage() const { return idle_ns > 0 ? static_cast<double>(covered_ns) / static_cast<double>(idle_ns) : 0.0; }
};

// Figures over the gaps' idle time (BatchGap::idle_ns, the breakdown's batch_gap_ns).
struct GapStats {
  std::int32_t device = 0;
  std::int64_t count = 0, total_ns = 0, p50_ns = 0, p95_ns = 0, max_ns = 0;
  double mean_ns = 0;
  std::array<GapCauseTotal, kGapCauses> by_cause{};  // indexed by IdleCause; zero counts included
};

// One entry per device that has gaps, ascending device.
std::vector<GapStats> summarize_gaps(const std::vector<BatchGap>& gaps);

// The causes of `stats` with at least one gap, most idle time first (ties in IdleCause order).
std::vector<GapCauseTotal> causes_by_idle(const std::array<GapCauseTotal, kGapCauses>& by_cause);

}  // namespace gpuprof::analysis
