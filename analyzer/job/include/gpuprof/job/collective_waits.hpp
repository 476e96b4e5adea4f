#pragma once

// Time each device spends inside a collective waiting for the last peer to
// arrive: a member of a group (collective_groups.hpp: the same name and
// ordinal on every device of every rank) waits from its own start until the
// latest start in the group (aligned clocks), at most for the kernel's length.

#include <cstdint>
#include <vector>

#include "gpuprof/analysis/interval_set.hpp"
#include "gpuprof/job/collective_groups.hpp"
#include "gpuprof/job/rank_summary.hpp"

namespace gpuprof::job {

// [rank index][collective index] → wait in ns, parallel to RankSummary::collectives.
using CollectiveWaits = std::vector<std::vector<std::int64_t>>;

CollectiveWaits compute_collective_waits(const std::vector<RankSummary>& ranks, const CollectiveGroups& groups);

// The exposed part of the waits of one device of one rank (rank clock): the
// wait prefix of each collective intersected with its exposed parts.
analysis::IntervalSet exposed_wait_set(const RankSummary& rank, const std::vector<std::int64_t>& waits,
                                       std::int32_t device);

}  // namespace gpuprof::job
