#pragma once

// Gives every idle interval of a device's windows its causes (DESIGN.md, "Idle
// causes"). An idle interval runs from the end of GPU work to the start of the
// next; the part after the next work's launch call began is launch_latency (the
// GPU waits for a launch already made), the rest is split by what the thread
// that launched that work was doing (HostCauses; every issuing thread when the
// launch is not known), and what it does not cover is unrecorded. So the causes
// of each interval add up to its length exactly.
//
// The idle time just before work that may wait for a partner (communication
// kernels, peer-to-peer copies) is also kept with its evidence (IdleEvidence):
// whether a partner device or rank was late is only known once every rank is
// analysed (job/peer_waits.hpp), and by then the trace is freed.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "gpuprof/analysis/device_activity.hpp"
#include "gpuprof/analysis/interval_set.hpp"
#include "gpuprof/idle/host_causes.hpp"
#include "gpuprof/idle/idle_cause.hpp"
#include "gpuprof/idle/launch_index.hpp"

namespace gpuprof::idle {

struct IdleInterval {
  std::int32_t device = 0;
  std::int64_t step = 0;  // the window's step number (0 for an activity span)
  bool in_gap = false;    // part of the batch gap, else idle inside the step
  std::int64_t start_ns = 0, end_ns = 0;
  CauseTimes causes{};  // adds up to end − start
};

// One idle piece of an idle run that communication work or a peer copy ends, with what explains it, so that a
// part of it can get another cause later: the part before a late partner arrived becomes peer_wait.
struct IdleEvidence {
  IdleInterval interval;         // as attributed: its causes add up to its length
  std::int64_t run_end_ns = 0;   // the start of the communication work or peer copy that ends the idle run
  std::int64_t host_end_ns = 0;  // from here to the interval's end the GPU waited for a launch (launch_latency)
  std::array<analysis::IntervalSet, kHostCauses> host;  // the host's cause sets inside [start, host_end)
};

// The causes of [from, to), a part of the piece, by the attribution's rules: over the whole piece they are
// interval.causes exactly.
CauseTimes causes_within(const IdleEvidence& evidence, std::int64_t from, std::int64_t to);

// The piece's causes when its part before `arrival` (a partner's start on this rank's clock) is peer_wait,
// whatever the host did then: the GPU would have waited for the partner anyway.
CauseTimes with_peer_wait(const IdleEvidence& evidence, std::int64_t arrival);

// Walks one device's windows in time order (each window starts at or after the previous one's end).
class IdleAttributor {
 public:
  // `before_peer_work`, when given, receives the evidence of every idle piece of a run that communication
  // work or a peer copy ends.
  IdleAttributor(const analysis::DeviceActivity& activity, const DeviceHostCauses& host,
                 std::vector<IdleEvidence>* before_peer_work = nullptr);
  // [start, tail) is inside the step and [tail, end) its batch gap; the idle parts of each are added to
  // `in_step` and `gap`, and listed in `intervals` when given.
  void window(std::int64_t step, std::int64_t start, std::int64_t tail, std::int64_t end, IdleTally& in_step,
              IdleTally& gap, std::vector<IdleInterval>* intervals);

 private:
  // The launch of the work that starts at `gpu_start` (the earliest call); nullopt when none is known.
  std::optional<Launch> launch_of(std::int64_t gpu_start);
  // The cursors over the sets of `thread` (every issuing thread's when nullopt).
  std::vector<analysis::OverlapCursor>& cursors_of(std::optional<std::int64_t> thread);
  CauseTimes causes_of(std::int64_t start, std::int64_t end, std::optional<std::int64_t> launch,
                       std::optional<std::int64_t> thread);
  bool peer_work_starts_at(std::int64_t time) const;
  void keep_evidence(const IdleInterval& piece, std::int64_t run_end, std::optional<std::int64_t> launch,
                     std::optional<std::int64_t> thread);

  const analysis::DeviceActivity& activity_;
  const DeviceHostCauses& host_;
  std::vector<analysis::OverlapCursor> cursors_;
  std::map<std::int64_t, std::vector<analysis::OverlapCursor>> thread_cursors_;
  LaunchCursor launches_;  // the busy intervals' starts are asked in order
  std::vector<IdleEvidence>* before_peer_work_ = nullptr;
};

// The causes of [start, gpu_start), the time before GPU work that starts at gpu_start: a straggler's
// lateness. launch_latency after that work's launch when it was made inside, the host's sets before.
CauseTimes causes_before(const DeviceHostCauses& host, std::int64_t start, std::int64_t gpu_start);

}  // namespace gpuprof::idle
