#pragma once

// Which collective kernels of a job are one collective: the same name and
// ordinal (rank_summary.hpp) on every device of every rank. The one matching
// behind the collective waits, the peer waits (across ranks and between the
// devices of one process) and the arrows of the job's Chrome trace.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string_view>
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

// Point-to-point kernels (NCCL's SendRecv, Send and Recv) join a rank with its peers, not every rank: the
// N-th of them on two ranks is one operation only when the job holds every rank of its world (an all-to-all
// made of sends and receives, as in DLRM). Of a subset of a larger job (2 of 128 ranks) they may be
// exchanges with ranks the job does not have, so they are not matched across ranks.
bool is_point_to_point(std::string_view kernel_name);
// False when some rank's trace names a world size larger than the number of ranks given.
bool holds_whole_world(const std::vector<RankSummary>& ranks);
// Whether ranks[rank].collectives[index] may be matched with other ranks' kernels by name and ordinal.
bool matchable_across_ranks(const Collective& collective, bool whole_world);

// Groups by (name, ordinal); a kernel that is not matchable across ranks is grouped with its own rank's
// devices only (its key names the rank).
CollectiveGroups match_collectives(const std::vector<RankSummary>& ranks, const ClockAlignment& clocks);

// Notices for matches that cannot be one collective: point-to-point kernels left unmatched, and groups whose
// members end further apart (aligned clocks) than the longest of them lasts, where real collectives end
// within microseconds of each other.
std::vector<std::string> collective_match_notices(const std::vector<RankSummary>& ranks,
                                                  const CollectiveGroups& groups, const ClockAlignment& clocks);

// The group of ranks[rank].collectives[index]; it is always there for groups made from the same ranks.
// `whole_world`: holds_whole_world(ranks), asked once by the caller.
const CollectiveGroup& group_of(const CollectiveGroups& groups, const std::vector<RankSummary>& ranks,
                                std::size_t rank, std::size_t index, bool whole_world);

}  // namespace gpuprof::job
