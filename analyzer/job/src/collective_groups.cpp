#include "gpuprof/job/collective_groups.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "gpuprof/units/units.hpp"

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

bool is_point_to_point(std::string_view name) {
  for (const std::string_view library : {"ncclKernel_", "ncclDevKernel_"}) {
    if (!name.starts_with(library)) continue;
    const auto operation = name.substr(library.size());
    return operation.starts_with("SendRecv") || operation.starts_with("Send") || operation.starts_with("Recv");
  }
  return false;
}

bool holds_whole_world(const std::vector<RankSummary>& ranks) {
  return std::none_of(ranks.begin(), ranks.end(), [&ranks](const RankSummary& rank) {
    return rank.world_size && static_cast<std::size_t>(*rank.world_size) > ranks.size();
  });
}

bool matchable_across_ranks(const Collective& collective, bool whole_world) {
  return whole_world || !is_point_to_point(collective.name);
}

namespace {

std::pair<std::string, std::int64_t> group_key(const std::vector<RankSummary>& ranks, std::size_t rank,
                                               std::size_t index, bool whole_world) {
  const auto& collective = ranks[rank].collectives[index];
  if (matchable_across_ranks(collective, whole_world)) return {collective.name, collective.ordinal};
  return {"rank " + std::to_string(ranks[rank].analysis.rank) + " only: " + collective.name, collective.ordinal};
}

}  // namespace

CollectiveGroups match_collectives(const std::vector<RankSummary>& ranks, const ClockAlignment& clocks) {
  CollectiveGroups groups;
  const bool whole_world = holds_whole_world(ranks);
  for (std::size_t rank = 0; rank < ranks.size(); ++rank) {
    const auto offset = clocks.offset_of(ranks[rank].analysis.rank);
    const auto& collectives = ranks[rank].collectives;
    for (std::size_t index = 0; index < collectives.size(); ++index) {
      auto& group = groups[group_key(ranks, rank, index, whole_world)];
      // Ranks are visited in order, so a new rank shows as a member of a rank other than the last one's.
      if (group.members.empty() || group.members.back().rank != rank) ++group.ranks;
      group.members.push_back({rank, index, collectives[index].start_ns + offset});
    }
  }
  return groups;
}

const CollectiveGroup& group_of(const CollectiveGroups& groups, const std::vector<RankSummary>& ranks,
                                std::size_t rank, std::size_t index, bool whole_world) {
  return groups.at(group_key(ranks, rank, index, whole_world));
}

std::vector<std::string> collective_match_notices(const std::vector<RankSummary>& ranks,
                                                  const CollectiveGroups& groups, const ClockAlignment& clocks) {
  std::vector<std::string> notices;
  const bool whole_world = holds_whole_world(ranks);
  std::int64_t unmatched = 0;
  std::int32_t world = 0;
  for (const auto& rank : ranks) {
    world = std::max(world, rank.world_size.value_or(0));
    for (const auto& collective : rank.collectives) unmatched += matchable_across_ranks(collective, whole_world) ? 0 : 1;
  }
  if (unmatched > 0 && ranks.size() > 1) {
    notices.push_back(fmt::format("{} point-to-point kernels (SendRecv, Send, Recv) not matched across ranks: the "
                                  "job holds {} of {} ranks, so their peers may be ranks it does not have",
                                  unmatched, ranks.size(), world));
  }
  std::int64_t doubtful = 0, matched = 0, widest = 0, longest_of_widest = 0;
  for (const auto& [key, group] : groups) {
    if (group.ranks < 2) continue;
    ++matched;
    std::int64_t first_end = 0, last_end = 0, longest = 0;
    for (std::size_t i = 0; i < group.members.size(); ++i) {
      const auto& member = group.members[i];
      const auto& collective = ranks[member.rank].collectives[member.collective];
      const auto end = collective.end_ns + clocks.offset_of(ranks[member.rank].analysis.rank);
      first_end = i == 0 ? end : std::min(first_end, end), last_end = i == 0 ? end : std::max(last_end, end);
      longest = std::max(longest, collective.end_ns - collective.start_ns);
    }
    if (last_end - first_end <= longest) continue;
    ++doubtful;
    if (last_end - first_end > widest) widest = last_end - first_end, longest_of_widest = longest;
  }
  if (doubtful > 0) {
    notices.push_back(fmt::format("{} of {} matched collectives end further apart across ranks than their kernels "
                                  "last (up to {} apart, kernels of {}): they may not be one collective, and their "
                                  "waits are doubtful",
                                  doubtful, matched, units::format_duration(widest),
                                  units::format_duration(longest_of_widest)));
  }
  return notices;
}

}  // namespace gpuprof::job
