#include "gpuprof/job/collective_groups.hpp"

#include <algorithm>

namespace gpuprof::job {

const CollectiveMember* CollectiveGroup::last_partner(std::size_t rank, std::size_t collective) const {
  const CollectiveMember* last = nullptr;
  for (const auto& member : members) {
    const bool self = member.rank == rank && member.collective == collective;
    if (!self && (last == nullptr || member.aligned_start_ns > last->aligned_start_ns)) last = &member;
  }
  return last;
}

std::int64_t CollectiveGroup::latest_start() const {
  std::int64_t latest = members.empty() ? 0 : members.front().aligned_start_ns;
  for (const auto& member : members) latest = std::max(latest, member.aligned_start_ns);
  return latest;
}

CollectiveGroups match_collectives(const std::vector<RankSummary>& ranks, const ClockAlignment& clocks) {
  CollectiveGroups groups;
  for (std::size_t rank = 0; rank < ranks.size(); ++rank) {
    const auto offset = clocks.offset_of(ranks[rank].analysis.rank);
    const auto& collectives = ranks[rank].collectives;
    for (std::size_t index = 0; index < collectives.size(); ++index) {
      auto& group = groups[{collectives[index].name, collectives[index].ordinal}];
      // Ranks are visited in order, so a new rank shows as a member of a rank other than the last one's.
      if (group.members.empty() || group.members.back().rank != rank) ++group.ranks;
      group.members.push_back({rank, index, collectives[index].start_ns + offset});
    }
  }
  return groups;
}

const CollectiveGroup& group_of(const CollectiveGroups& groups, const std::vector<RankSummary>& ranks,
                                std::size_t rank, std::size_t index) {
  const auto& collective = ranks[rank].collectives[index];
  return groups.at({collective.name, collective.ordinal});
}

}  // namespace gpuprof::job
