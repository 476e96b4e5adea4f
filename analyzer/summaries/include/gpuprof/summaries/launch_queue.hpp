#pragma once

// How the host feeds the GPU, kernel by kernel: the launch latency per kernel
// name (kernel start − start of the API call that launched it, HTA's "kernel
// launch delay") and the launch queue over time per device: kernels launched
// and not yet started (HTA's "queue length"). A queue that stays near zero means
// the GPU waits for the host (launch-bound); a long one means the host is ahead.

#include <cstdint>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/summaries/named_durations.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::summaries {

// Per kernel short name, over the launches of kernel_launch.hpp; rows by total. The total (stats.total_ns)
// is the union of the kernels' waits (call start to kernel start), not their sum: waits overlap, and a sum
// could exceed the trace. The other statistics are of the latencies themselves.
std::vector<NamedDurations> launch_latency_by_kernel(const trace::TraceModel& model,
                                                     const analysis::CorrelationIndex& correlations);

struct QueuePoint {
  std::int64_t time_ns = 0;
  std::int64_t depth = 0;  // from this time until the next point
};

struct LaunchQueue {
  std::int32_t device = 0;
  std::int64_t kernels = 0;  // kernels with a known launching call: what the queue counts
  std::int64_t max_depth = 0;
  double mean_depth = 0;        // time-weighted, from the first launch to the last kernel start
  double share_empty = 0;       // of that time, with no kernel waiting to start
  std::vector<QueuePoint> series;  // at most `max_points`: the deepest point of each slice kept
};

std::vector<LaunchQueue> launch_queues(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations,
                                       std::size_t max_points = 2000);

}  // namespace gpuprof::summaries
