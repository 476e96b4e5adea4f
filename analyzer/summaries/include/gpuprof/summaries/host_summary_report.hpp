#pragma once

// The summaries one rank's report carries (analyze_rank fills them).

#include <vector>

#include "gpuprof/summaries/launch_queue.hpp"
#include "gpuprof/summaries/named_durations.hpp"

namespace gpuprof::summaries {

struct HostSummaries {
  std::vector<NamedDurations> ranges;          // nvtx_sum
  std::vector<NamedDurations> api_calls;       // cuda_api_sum
  std::vector<NamedDurations> launch_latency;  // per kernel short name
  std::vector<LaunchQueue> launch_queues;      // per device
};

HostSummaries summarize_host(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations);

}  // namespace gpuprof::summaries
