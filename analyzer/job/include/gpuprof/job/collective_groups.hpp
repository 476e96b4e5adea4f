#pragma once

// Which collective kernels of a job are one collective: the same name and
// ordinal (rank_summary.hpp) on every device of every rank. The one matching
// behind the collective waits, the peer waits (across ranks and between the
// devices of one process) and the arrows of the job's Chrome trace.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gpuprof/job/clock_alignment.hpp"
#include "gpuprof/job/rank_summary.hpp"

namespace gpuprof::job {

struct CollectiveMember {
  std::size_t rank = 0;        // index into the job's ranks
  std::size_t collective = 0;  // index into that rank's collectives
  std::int64_t aligned_start_ns = 0;  // the kernel's start on the reference clock
};

struct CollectiveGroup {
  std::vector<CollectiveMember> members;  // in rank order, then the rank's collective order
  std::size_t ranks = 0;                  // distinct ranks among them
  // The member other than ranks[rank].collectives[collective] (indices) that started last: another rank, or
  // another device of the same rank (one process, one clock); the partner that one waited for. nullptr when
  // the group has no other member.
  const CollectiveMember* last_partner(std::size_t rank, std::size_t collective) const;
  std::int64_t latest_start() const;
};

using CollectiveGroups = std::map<std::pair<std::string, std::int64_t>, CollectiveGroup>;

CollectiveGroups match_collectives(const std::vector<RankSummary>& ranks, const ClockAlignment& clocks);

// The group of ranks[rank].collectives[index]; it is always there for groups made from the same ranks.
const CollectiveGroup& group_of(const CollectiveGroups& groups, const std::vector<RankSummary>& ranks,
                                std::size_t rank, std::size_t index);

}  // namespace gpuprof::job
