#pragma once

// Which windows per-step figures are averaged over, so that the report's
// summary, compare's waterfall and compare's kernel rows use one set: per
// device, the steady windows that another step follows (whole step periods);
// else every steady window; else every window.

#include <vector>

#include "gpuprof/job/rank_summary.hpp"

namespace gpuprof::job {

// `windows` sorted by (device, start), as RankSummary::windows; one flag per window.
std::vector<bool> step_basis(const std::vector<WindowSample>& windows);

}  // namespace gpuprof::job
