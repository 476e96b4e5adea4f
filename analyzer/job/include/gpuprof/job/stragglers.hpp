#pragma once

// Which ranks hold the job back: per step, how late each rank starts compared
// with the earliest rank (aligned clocks) and how long it waits inside
// collectives; per rank, the mean step time; for the job, the slowest rank and
// the imbalance.

#include <cstdint>
#include <vector>

#include "gpuprof/job/clock_alignment.hpp"
#include "gpuprof/job/collective_waits.hpp"
#include "gpuprof/job/rank_summary.hpp"
#include "gpuprof/idle/idle_cause.hpp"

namespace gpuprof::job {

struct RankStep {
  std::int32_t rank = 0;
  std::int64_t step = 0;
  bool warmup = false;
  std::int64_t start_ns = 0;     // reference clock; first start over the rank's devices
  std::int64_t duration_ns = 0;  // first start to last end over the rank's devices
  std::int64_t lateness_ns = 0;  // start − earliest start of this step over all ranks
  std::int64_t collective_wait_ns = 0;
  // What the rank's host did in the lateness interval (DESIGN.md, "Straggler reason"); adds up to lateness_ns.
  idle::CauseTimes lateness_causes{};
  // The part of the lateness before the rank's first recorded host activity (its trace starts late): part of
  // the unrecorded time above, said apart because the host was then somewhere no trace shows.
  std::int64_t lateness_before_trace_ns = 0;
};

struct RankTiming {
  std::int32_t rank = 0;
  std::int64_t steps = 0;  // steps the means are over (steady ones when there are any)
  double mean_step_ns = 0, mean_lateness_ns = 0, mean_collective_wait_ns = 0;
  // Step time less waiting for peers: the rank's own work, which decides who holds the job back.
  double mean_work_ns = 0;
  bool straggler = false;
  idle::CauseTimes lateness_causes{};  // summed over the `steps` the means are over
  std::int64_t lateness_before_trace_ns = 0;  // likewise
};

struct JobSummary {
  std::int32_t ranks = 0, devices = 0;
  double mean_step_ns = 0;  // mean over ranks of RankTiming::mean_step_ns
  // Slowest and fastest by RankTiming::mean_work_ns: in a synchronised job the
  // ranks that wait longest have the longest steps, so step time alone would
  // blame the victims.
  std::int32_t slowest_rank = 0, fastest_rank = 0;
  double slowest_work_ns = 0, fastest_work_ns = 0;
  double imbalance = 0;  // slowest work / mean work − 1
  std::vector<std::int32_t> stragglers;
};

struct StragglerReport {
  std::vector<RankStep> steps;  // by (step, rank)
  std::vector<RankTiming> ranks;
  JobSummary job;
};

// A rank is a straggler when its mean start lateness exceeds the (lower)
// median lateness of all ranks by more than this share of the median step time.
inline constexpr double kStragglerThreshold = 0.05;

StragglerReport find_stragglers(const std::vector<RankSummary>& ranks, const ClockAlignment& clocks,
                                const CollectiveWaits& waits);

}  // namespace gpuprof::job
