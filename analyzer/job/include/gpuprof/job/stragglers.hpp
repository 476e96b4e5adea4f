#pragma once

// Which ranks hold the job back: per step, how late each rank starts compared
// with the earliest rank (aligned clocks) and how long it waits inside
// collectives; per rank, the mean step time and the waits it causes (the other
// ranks' peer_wait for it as their last partner to arrive, and the collectives
// it arrived last at); for the job, the stragglers ranked by the waits they
// cause, the slowest rank and the imbalance. Start lateness alone is not
// evidence: profilers start at different instants on each rank.

#include <cstdint>
#include <vector>

#include "gpuprof/job/clock_alignment.hpp"
#include "gpuprof/job/collective_groups.hpp"
#include "gpuprof/job/collective_waits.hpp"
#include "gpuprof/job/peer_waits.hpp"
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
  // The other ranks' steady peer_wait given to this rank as the last partner to arrive (job/peer_waits.hpp),
  // summed over their devices; and the matched collectives of several ranks this rank started last at.
  std::int64_t caused_wait_ns = 0, last_arrivals = 0;
  double mean_caused_wait_ns = 0;  // caused_wait_ns per step of this rank's means
  bool straggler = false;
  idle::CauseTimes lateness_causes{};  // summed over the `steps` the means are over
  std::int64_t lateness_before_trace_ns = 0;  // likewise
};

struct JobSummary {
  std::int32_t ranks = 0, devices = 0;
  double mean_step_ns = 0;  // mean over ranks of RankTiming::mean_step_ns
  // The slowest rank is the one that holds the others back: the first straggler when there is one (the
  // most waits caused), else the rank with the most own work (RankTiming::mean_work_ns; in a synchronised
  // job the ranks that wait longest have the longest steps, so step time alone would blame the victims).
  // Fastest: the least own work.
  std::int32_t slowest_rank = 0, fastest_rank = 0;
  double slowest_work_ns = 0, fastest_work_ns = 0;  // their mean own work per step
  double imbalance = 0;  // the most own work of any rank / mean work − 1
  std::vector<std::int32_t> stragglers;  // most waits caused first
  std::int64_t matched_collectives = 0;  // collectives matched across two ranks or more (last_arrivals' basis)
};

struct StragglerReport {
  std::vector<RankStep> steps;  // by (step, rank)
  std::vector<RankTiming> ranks;
  JobSummary job;
};

// A rank is a straggler when the waits it causes per step exceed this share of the (lower) median step
// time: the other ranks' GPUs idled that long for it.
inline constexpr double kStragglerThreshold = 0.005;

StragglerReport find_stragglers(const std::vector<RankSummary>& ranks, const ClockAlignment& clocks,
                                const CollectiveWaits& waits, const CollectiveGroups& groups,
                                const std::vector<PeerWaitPiece>& peer_waits);

}  // namespace gpuprof::job
