#pragma once

// Batch gaps (DESIGN.md, "Batch gap"): the tail of step k's window, from the
// last work of step k to the first work of step k+1 on a device. Their causes
// are the idle causes of the tail's idle time (DESIGN.md, "Idle causes"),
// attributed with the breakdown: the gap is labelled with the cause that covers
// at least half of it, else `mixed`.

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/rank/time_breakdown.hpp"
#include "gpuprof/idle/idle_cause.hpp"
#include "gpuprof/trace/records.hpp"

namespace gpuprof::analysis {

using idle::IdleCause;
using idle::to_string;

struct BatchGap {
  std::int32_t device = 0;
  std::int64_t after_step = 0;
  std::int64_t start_ns = 0, end_ns = 0;
  IdleCause cause = IdleCause::unrecorded;
  bool after_warmup = false;  // the step before the gap is a warm-up step
  std::int64_t idle_ns = 0;   // the idle part of [start, end): the step's batch_gap_ns
  idle::CauseTimes causes{};  // the idle time by cause; adds up to idle_ns when causes were attributed
  // Share of idle_ns that the labelled cause covers (for mixed, the largest cause); 0 without causes.
  double coverage() const;
};

// `steps` sorted by (device, start) as compute_breakdown returns them; one gap per step with a batch gap
// that another step follows.
std::vector<BatchGap> find_batch_gaps(const std::vector<StepBreakdown>& steps);

// The rows of the derived `gaps` table (report --save) and of an export's batch-gap counters.
std::vector<trace::GapRow> gap_rows(const std::vector<BatchGap>& gaps, std::int32_t rank);

}  // namespace gpuprof::analysis
