#pragma once

// Idle time spent waiting for a late partner rank (DESIGN.md, "Idle causes",
// peer_wait). When an idle run of a device ends with communication work whose
// matched collective (collective_groups.hpp) on another rank started after the
// run began, the GPU would have waited inside the collective until that last
// partner arrived anyway: the part of the run before the arrival is peer_wait,
// whatever the host did meanwhile; the rest keeps its causes. Only known once
// every rank is analysed, so it is applied to the ranks' idle tallies (steps,
// devices, batch gaps, kept intervals, window samples) afterwards, from the
// evidence the analysis kept (RankAnalysis::idle_before_comm).

#include <cstdint>
#include <vector>

#include "gpuprof/job/clock_alignment.hpp"
#include "gpuprof/job/collective_groups.hpp"
#include "gpuprof/job/rank_summary.hpp"

namespace gpuprof::job {

// One idle piece (inside a step or in its batch gap) with time given to peer_wait.
struct PeerWaitPiece {
  std::int32_t rank = 0, device = 0;
  std::int64_t step = 0;  // its window's step (0 for an activity span)
  bool in_gap = false;
  bool steady = false;    // its window is one of the device's steady windows
  std::int64_t start_ns = 0, end_ns = 0;  // the piece, on its rank's clock
  std::int64_t peer_wait_ns = 0;          // its part before the partner arrived
  std::int32_t waited_for = 0;            // the partner's rank: the one of another rank that started last
};

// Gives the peer_wait time to every rank's tallies and returns the pieces, by rank, device and time.
std::vector<PeerWaitPiece> apply_peer_waits(std::vector<RankSummary>& ranks, const CollectiveGroups& groups,
                                            const ClockAlignment& clocks);

}  // namespace gpuprof::job
