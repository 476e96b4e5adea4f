#include "gpuprof/job/collective_waits.hpp"

#include <algorithm>

namespace gpuprof::job {

CollectiveWaits compute_collective_waits(const std::vector<RankSummary>& ranks, const CollectiveGroups& groups) {
  CollectiveWaits waits(ranks.size());
  for (std::size_t rank = 0; rank < ranks.size(); ++rank) waits[rank].resize(ranks[rank].collectives.size());
  for (const auto& [key, group] : groups) {
    // Every device of every rank waits for the last member to arrive.
    const auto latest = group.latest_start();
    for (const auto& member : group.members) {
      const auto& collective = ranks[member.rank].collectives[member.collective];
      waits[member.rank][member.collective] =
          std::clamp<std::int64_t>(latest - member.aligned_start_ns, 0, collective.end_ns - collective.start_ns);
    }
  }
  return waits;
}

analysis::IntervalSet exposed_wait_set(const RankSummary& rank, const std::vector<std::int64_t>& waits,
                                       std::int32_t device) {
  std::vector<analysis::Interval> parts;
  for (std::size_t i = 0; i < rank.collectives.size(); ++i) {
    const auto& collective = rank.collectives[i];
    if (collective.device != device || waits[i] == 0) continue;
    const auto wait_end = collective.start_ns + waits[i];
    for (const auto& part : collective.exposed) {
      const analysis::Interval clipped{part.start, std::min(part.end, wait_end)};
      if (clipped.start < clipped.end) parts.push_back(clipped);
    }
  }
  // Collectives on several streams may overlap; the union counts each instant once.
  return analysis::normalize(std::move(parts));
}

}  // namespace gpuprof::job
