#pragma once

// Host/GPU time-base check. Every launch API call that names its GPU work by
// correlation id gives one launch delay: GPU start minus the call's start. GPU
// work cannot start before its launch, so when the two sides share a clock the
// delays are positive and small. Some producers (nvprof with CPU profiling,
// hand-merged files) put the GPU side on another base, seconds or days away;
// the timeline is then unusable until the GPU side is moved onto the host clock.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::importers {

// The check looks at this many linked launches at most: enough for an estimate,
// bounded memory on traces of any size.
inline constexpr std::int64_t kClockCheckSample = 100'000;
// Disagreement rule 2: even the quickest launch took longer than this.
inline constexpr std::int64_t kImplausibleLaunchDelayNs = 1'000'000'000;

struct GpuClockCheck {
  std::int64_t linked_launches = 0;  // pairs looked at (≤ kClockCheckSample)
  std::int64_t negative_delays = 0;  // GPU work starting before its launch call
  std::optional<std::int64_t> smallest_delay_ns, median_delay_ns;
  // Added to every GPU timestamp to put it on the host clock; 0 when the clocks
  // agree. When they disagree the shift makes the smallest delay exactly 0:
  // the least movement after which no GPU work precedes its launch.
  std::int64_t shift_ns = 0;
  std::string reason;  // why the clocks were judged to disagree; empty when they agree
  // nvprof only: segments of the piecewise fit (1: one offset fits), and the bounds broken by one constant
  // shift and by the segments (nvprof_clock_fit.hpp).
  std::int64_t segments = 0, violations_constant = 0, violations_piecewise = 0;
};

// The rule, on launch delays however gathered (the analysis applies it to
// traces already in memory, such as the collector's). The clocks disagree when
// more than half the delays are negative, or when the smallest delay exceeds
// kImplausibleLaunchDelayNs. No delays: nothing to judge, no shift.
GpuClockCheck judge_launch_delays(std::vector<std::int64_t> delays);

// judge_launch_delays on the first kClockCheckSample linked launches of a gpuprof trace.
GpuClockCheck check_gpu_clock(sqlite::Database& trace);

// Why GPU times moved onto the host clock cannot be right, nullopt when they can: the median launch delay
// is negative (most work would start before its launch), or the move stretched the GPU rows to span longer
// than the host rows (calls, synchronizations, host ranges) that launched and waited for them and than
// they spanned as recorded (`recorded_gpu_span_ns`, on the GPU's own clock: a real trace's last kernels may
// run past the host's last recorded call, by 21 ms in a shared MAGMA trace).
std::optional<std::string> implausible_clock_move(sqlite::Database& trace, std::int64_t recorded_gpu_span_ns);

// check_gpu_clock on a trace being written (an import's staging file), then,
// when the clocks disagree, moves kernels, copies, memsets and GPU-side ranges
// by the shift, updates start_ns/end_ns, and records the shift in meta
// (gpu_clock_shift_ns, gpu_clock_shift_reason) and in collector_stats
// (import.gpu_clock_shift_ns, info). A shift that would push a time out of
// range is not applied and is counted as import.gpu_clock_shift_refused (warning); a move (piecewise or
// constant) after which implausible_clock_move objects is rolled back and counted as
// import.gpu_clock_move_refused (warning): a refused piecewise fit falls back to the constant shift.
GpuClockCheck align_gpu_clock(const std::string& trace_path);

}  // namespace gpuprof::importers
