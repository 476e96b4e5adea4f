#include "gpuprof/job/peer_waits.hpp"

#include <algorithm>
#include <map>

#include "gpuprof/rank/gaps.hpp"
#include "gpuprof/rank/step_gaps.hpp"
#include "gpuprof/idle/idle_attribution.hpp"

namespace gpuprof::job {
namespace {

using DeviceKey = std::pair<std::int32_t, std::int64_t>;  // a device and a time or a step number

// A partner's arrival, on the waiting rank's clock.
struct Arrival {
  std::int64_t time_ns = 0;
  std::int32_t rank = 0, device = 0;  // the partner: its rank number and device
};

// Keeps the later arrival: a run that several partners end lasted until the latest of them arrived.
void keep_latest(std::map<DeviceKey, Arrival>& arrivals, const DeviceKey& key, const Arrival& arrival) {
  const auto [slot, added] = arrivals.try_emplace(key, arrival);
  if (!added && arrival.time_ns > slot->second.time_ns) slot->second = arrival;
}

// Per (device, start) of a rank's communication kernels and peer copies: the last partner to arrive, of
// another rank or another device of this one (collective_groups.hpp), or the partner device of a peer copy.
std::map<DeviceKey, Arrival> last_arrivals(const std::vector<RankSummary>& ranks, const CollectiveGroups& groups,
                                           const ClockAlignment& clocks, std::size_t rank) {
  std::map<DeviceKey, Arrival> arrivals;
  const auto& summary = ranks[rank];
  const auto offset = clocks.offset_of(summary.analysis.rank);
  const auto& collectives = summary.collectives;
  const bool whole_world = holds_whole_world(ranks);
  for (std::size_t index = 0; index < collectives.size(); ++index) {
    const auto* partner = group_of(groups, ranks, rank, index, whole_world).last_partner(rank, index);
    if (partner == nullptr) continue;
    const auto& other = ranks[partner->rank];
    const Arrival arrival{partner->aligned_start_ns - offset, other.analysis.rank,
                          other.collectives[partner->collective].device};
    keep_latest(arrivals, {collectives[index].device, collectives[index].start_ns}, arrival);
  }
  // A peer copy's partner is a device of the same process: its time is on this rank's clock already.
  for (const auto& copy : summary.analysis.peer_copies.copies) {
    keep_latest(arrivals, {copy.device, copy.start_ns}, {copy.partner_ready_ns, summary.analysis.rank, copy.partner});
  }
  return arrivals;
}

// The tally an idle piece was added to: its step window's (inside the step or its batch gap), or the
// device's activity span.
class WindowTallies {
 public:
  explicit WindowTallies(analysis::RankAnalysis& analysis) : analysis_(analysis) {
    for (std::size_t i = 0; i < analysis.steps.size(); ++i) {
      steps_[{analysis.steps[i].step.device, analysis.steps[i].step.step}] = i;
    }
  }

  struct Target {
    idle::IdleTally* tally = nullptr;
    bool steady = false;
  };

  Target of(const idle::IdleInterval& piece) {
    auto device = std::find_if(analysis_.devices.begin(), analysis_.devices.end(),
                               [&](const analysis::DeviceBreakdown& entry) { return entry.device == piece.device; });
    if (device == analysis_.devices.end()) return {};
    if (device->source == analysis::WindowSource::span) return {&device->total.idle_in_steps_causes, true};
    const auto found = steps_.find({piece.device, piece.step});
    if (found == steps_.end()) return {};
    auto& window = analysis_.steps[found->second];
    auto& breakdown = window.breakdown;
    return {piece.in_gap ? &breakdown.batch_gap_causes : &breakdown.idle_in_steps_causes,
            !window.step.warmup || device->steady_is_all_steps};
  }

 private:
  analysis::RankAnalysis& analysis_;
  std::map<DeviceKey, std::size_t> steps_;  // (device, step) → index into analysis.steps
};

// The kept idle interval (--gaps all, the app) of the piece gets its new causes too.
void update_kept_interval(std::vector<idle::IdleInterval>& intervals, const idle::IdleInterval& piece) {
  const auto it = std::lower_bound(intervals.begin(), intervals.end(), DeviceKey{piece.device, piece.start_ns},
                                   [](const idle::IdleInterval& interval, const DeviceKey& key) {
                                     return DeviceKey{interval.device, interval.start_ns} < key;
                                   });
  if (it != intervals.end() && it->device == piece.device && it->start_ns == piece.start_ns) it->causes = piece.causes;
}

// Everything summed from the windows' tallies, summed again.
void refresh_sums(RankSummary& rank) {
  auto& analysis = rank.analysis;
  analysis::resum_step_windows(analysis.steps, analysis.devices);
  for (auto& device : analysis.devices) {
    if (device.source == analysis::WindowSource::span) device.steady = device.total;
  }
  if (!analysis.steps.empty()) analysis.gaps = analysis::find_batch_gaps(analysis.steps);
  const auto step_gaps = analysis::gap_of_each_step(analysis.steps, analysis.gaps);
  std::map<DeviceKey, std::size_t> steps;  // (device, step) → index into analysis.steps
  for (std::size_t index = 0; index < analysis.steps.size(); ++index) {
    steps[{analysis.steps[index].step.device, analysis.steps[index].step.step}] = index;
  }
  for (auto& window : rank.windows) {
    if (!window.from_steps) continue;
    const auto found = steps.find({window.device, window.step});
    if (found == steps.end()) continue;
    window.breakdown = analysis.steps[found->second].breakdown;
    const auto gap = step_gaps[found->second];
    if (window.gap_cause && gap) window.gap_cause = analysis.gaps[*gap].cause;
  }
}

}  // namespace

std::vector<PeerWaitPiece> apply_peer_waits(std::vector<RankSummary>& ranks, const CollectiveGroups& groups,
                                            const ClockAlignment& clocks) {
  std::vector<PeerWaitPiece> pieces;
  for (std::size_t rank = 0; rank < ranks.size(); ++rank) {
    auto& summary = ranks[rank];
    const auto arrivals = last_arrivals(ranks, groups, clocks, rank);
    if (arrivals.empty()) continue;
    WindowTallies tallies(summary.analysis);
    const auto before = pieces.size();
    for (auto& evidence : summary.analysis.idle_before_peer_work) {
      auto& piece = evidence.interval;
      const auto found = arrivals.find({piece.device, evidence.run_end_ns});
      if (found == arrivals.end()) continue;
      const auto& arrival = found->second;
      const auto target = tallies.of(piece);
      if (arrival.time_ns <= piece.start_ns || target.tally == nullptr) continue;
      const auto causes = idle::with_peer_wait(evidence, arrival.time_ns);
      target.tally->remove(piece.causes);
      target.tally->add(causes);
      // The evidence keeps the causes now tallied, so that applying it again changes nothing.
      piece.causes = causes;
      update_kept_interval(summary.analysis.idle_intervals, piece);
      pieces.push_back({summary.analysis.rank, piece.device, piece.step, piece.in_gap, target.steady, piece.start_ns,
                        piece.end_ns, std::min(arrival.time_ns, piece.end_ns) - piece.start_ns, arrival.rank,
                        arrival.device});
    }
    if (pieces.size() > before) refresh_sums(summary);
  }
  return pieces;
}

}  // namespace gpuprof::job
