#include "gpuprof/job/collective_waits.hpp"

#include <algorithm>
#include <map>

namespace gpuprof::job {

CollectiveWaits compute_collective_waits(const std::vector<RankSummary>& ranks, const ClockAlignment& clocks) {
  // Latest aligned start of each collective over every device of every rank.
  std::map<std::pair<std::string, std::int64_t>, std::int64_t> latest_start;
  for (const auto& rank : ranks) {
    const auto offset = clocks.offset_of(rank.analysis.rank);
    for (const auto& collective : rank.collectives) {
      auto [where, inserted] = latest_start.try_emplace({collective.name, collective.ordinal}, collective.start_ns + offset);
      if (!inserted) where->second = std::max(where->second, collective.start_ns + offset);
    }
  }
  CollectiveWaits waits;
  for (const auto& rank : ranks) {
    const auto offset = clocks.offset_of(rank.analysis.rank);
    auto& rank_waits = waits.emplace_back();
    for (const auto& collective : rank.collectives) {
      const auto latest = latest_start.at({collective.name, collective.ordinal});
      const auto wait = std::clamp<std::int64_t>(latest - (collective.start_ns + offset), 0,
                                                 collective.end_ns - collective.start_ns);
      rank_waits.push_back(wait);
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
