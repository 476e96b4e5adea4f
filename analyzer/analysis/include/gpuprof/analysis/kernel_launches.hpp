#pragma once

// Every kernel's launch (kernel_launch.hpp) found once, in row order, for the tables that each read all of them:
// the launch delays per device, the launch latency per kernel and the launch queues. Each found it again,
// three lookups of the launching call per kernel each (its API row, start and name), and the latency table
// once more per group, far from the last call read. A counted launch is kept as its latency in 32 bits (20 MB
// at 10 M events); the call's start is the kernel's start less it. What does not fit, and the rare launches
// that are not counted but have a call (a graph's node, a kernel before its call), are found again when read.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/kernel_launch.hpp"
#include "gpuprof/analysis/launch_stats.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

class KernelLaunches {
 public:
  // Both are read again by operator(): they must outlive this.
  KernelLaunches(const trace::TraceModel& model, const CorrelationIndex& correlations);

  // kernel_launch(model, correlations, GraphLaunchNames(model), row).
  KernelLaunch operator()(std::size_t row) const {
    const auto kept = kept_[row];
    if (kept < kFoundAgain) return {LaunchStatus::counted, model_.kernels.start_ns[row] - kept, kept};
    if (kept == kNoCall) return {};
    return kernel_launch(model_, correlations_, graph_launches_, row);
  }
  bool counted(std::size_t row) const { return kept_[row] <= kFoundAgain; }

 private:
  static constexpr std::uint32_t kNoCall = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint32_t kNotCounted = kNoCall - 1;  // a call, but no launch to count
  static constexpr std::uint32_t kFoundAgain = kNoCall - 2;  // counted, its latency past 32 bits

  const trace::TraceModel& model_;
  const CorrelationIndex& correlations_;
  GraphLaunchNames graph_launches_;
  std::vector<std::uint32_t> kept_;  // per kernel row: a counted latency, or one of the codes above
};

// analyze_launches over launches already found.
std::vector<LaunchStats> analyze_launches(const trace::TraceModel& model, const KernelLaunches& launches);

}  // namespace gpuprof::analysis
