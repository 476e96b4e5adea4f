#pragma once

// Idle time spent waiting for a late partner device or rank (DESIGN.md, "Idle
// causes", peer_wait). When an idle run of a device ends with work that needs a
// partner, and the partner arrived after the run began, the GPU would have
// waited for it anyway: the part of the run before the arrival is peer_wait,
// whatever the host did meanwhile; the rest keeps its causes. The work and its
// partners: a collective kernel and its matched collectives
// (collective_groups.hpp) on other ranks and on the other devices of its own
// process, arriving when they started; a peer copy and the other device it
// joins, arriving when that device's last work before the copy ended
// (idle/peer_copy_partners.hpp). Of several partners the latest arrival counts.
// Only known once every rank is analysed, so it is applied to the ranks' idle
// tallies (steps, devices, batch gaps, kept intervals, window samples)
// afterwards, from the evidence the analysis kept
// (RankAnalysis::idle_before_peer_work). A job of one trace gets it too.

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
  // The partner that arrived last: its rank (this piece's own for another device of the same process) and device.
  std::int32_t waited_for = 0, waited_for_device = 0;
};

// Gives the peer_wait time to every rank's tallies and returns the pieces, by rank, device and time.
std::vector<PeerWaitPiece> apply_peer_waits(std::vector<RankSummary>& ranks, const CollectiveGroups& groups,
                                            const ClockAlignment& clocks);

}  // namespace gpuprof::job
