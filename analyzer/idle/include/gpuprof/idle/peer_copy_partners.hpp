#pragma once

// The partner of every peer-to-peer copy (DESIGN.md, "Idle causes", peer_wait;
// docs/report.md): a PtoP copy runs on its row's device, one end of the copy;
// its partner is the other end. The partner's work is every kernel, memset and
// copy on the partner device, and the work the copy had to wait for is the last
// of it that ended at or before the copy started. Both devices are of one
// process, so both times are on one clock. The job (job/peer_waits.hpp) gives
// the part of an idle run that such a copy ends, until the partner's work
// ended, to peer_wait.

#include <cstdint>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::idle {

struct PeerCopyPartner {
  std::int32_t device = 0;            // the copy row's device: the timeline the copy runs on
  std::int64_t start_ns = 0;          // the copy's start
  std::int32_t partner = 0;           // the copy's other end
  std::int64_t partner_ready_ns = 0;  // the end of the partner's last work that ended at or before start_ns
};

struct PeerCopyPartners {
  // By (device, start); only copies whose partner did work before them.
  std::vector<PeerCopyPartner> copies;
  // PtoP rows naming no second device of the trace (both ends the same or unknown, the row's device not one
  // of its ends, or an end that is no device of the trace): left out of peer_wait, counted here.
  std::int64_t ignored = 0;
};

PeerCopyPartners find_peer_copy_partners(const trace::TraceModel& model);

}  // namespace gpuprof::idle
