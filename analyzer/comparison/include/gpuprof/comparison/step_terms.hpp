#pragma once

// The per-window parts of a step (docs/compare.md, "Waterfall terms"), kept as
// integer sums so that parts and whole add up exactly before averaging.

#include <array>
#include <cstdint>
#include <vector>

#include "gpuprof/job/job_analysis.hpp"

namespace gpuprof::comparison {

// Batch gap time by idle::IdleCause code, and a last slot for gaps the analysis
// found no gap record for (it should stay empty; it keeps the sums exact if not).
inline constexpr std::size_t kGapCauseSlots = idle::kIdleLabels + 1;
inline constexpr std::size_t kUnattributedGapSlot = kGapCauseSlots - 1;

struct TermSums {
  std::int64_t samples = 0;
  std::int64_t period_ns = 0;  // step windows (batch gaps included), summed
  std::int64_t computation_ns = 0;
  std::array<std::int64_t, job::kCopyKinds> exposed_copy_ns{};
  std::int64_t exposed_comm_ns = 0, sync_wait_ns = 0, batch_gap_ns = 0, other_ns = 0;
  std::array<std::int64_t, kGapCauseSlots> batch_gap_by_cause_ns{};  // adds up to batch_gap_ns

  std::int64_t parts() const;  // equals period_ns by construction
};

// Sums over the windows a run's step time is measured on: per device, steady
// steps followed by another step; when a device has none, its steady steps;
// when it has no steady step, all its windows.
TermSums sum_step_terms(const job::JobAnalysis& job);

}  // namespace gpuprof::comparison
