#pragma once

// launch_queue.hpp's tables over launches already found (analysis/kernel_launches.hpp), for a caller that
// makes several launch tables of one model: each kernel's launching call is then looked up once, not per table.

#include <cstddef>
#include <vector>

#include "gpuprof/analysis/kernel_launches.hpp"
#include "gpuprof/summaries/launch_queue.hpp"

namespace gpuprof::summaries {

std::vector<NamedDurations> launch_latency_by_kernel(const trace::TraceModel& model,
                                                     const analysis::KernelLaunches& launches);
std::vector<LaunchQueue> launch_queues(const trace::TraceModel& model, const analysis::KernelLaunches& launches,
                                       std::size_t max_points = 2000);

}  // namespace gpuprof::summaries
