#pragma once

// Every kernel's launch (kernel_launch.hpp) found once, in row order, for the tables that each read all of them:
// the launch delays per device, the launch latency per kernel and the launch queues. Each found it again,
// three lookups of the launching call per kernel each (its API row, start and name), and the latency table
// once more per group, far from the last call read. A counted launch is kept as its latency in 32 bits (20 MB
// at 10 M events); the call's start is the kernel's start less it. What does not fit, and the rare launches
// that are not counted but have a call (a graph's node, a kernel before its call), are found again when read.
// Latencies past 32 bits keep their next 8 bits in a byte per kernel, made only when one is seen: in the
// generated 100 M-event trace finding such launches again (each a read of the API table far from the last
// call read) was two thirds of the latency table's own samples.

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
    if (wide(row)) {
      const auto latency = static_cast<std::int64_t>((std::uint64_t{high_[row]} << 32) | kept);
      return {LaunchStatus::counted, model_.kernels.start_ns[row] - latency, latency};
    }
    if (kept < kFoundAgain) return {LaunchStatus::counted, model_.kernels.start_ns[row] - kept, kept};
    if (kept == kNoCall) return {};
    return kernel_launch(model_, correlations_, graph_launches_, row);
  }
  bool counted(std::size_t row) const { return wide(row) || kept_[row] <= kFoundAgain; }
  // Every counted latency fits 32 bits (none wide, none found again): a table may keep them in 32 bits.
  bool latencies_fit_32_bits() const { return high_.empty() && !found_again_; }

 private:
  static constexpr std::uint32_t kNoCall = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint32_t kNotCounted = kNoCall - 1;  // a call, but no launch to count
  static constexpr std::uint32_t kFoundAgain = kNoCall - 2;  // counted, its latency past what is kept

  // A latency of 2^32 ns up to 2^40: its low 32 bits in kept_, its next 8 (never 0) in high_.
  bool wide(std::size_t row) const { return !high_.empty() && high_[row] != 0; }

  const trace::TraceModel& model_;
  const CorrelationIndex& correlations_;
  GraphLaunchNames graph_launches_;
  std::vector<std::uint32_t> kept_;  // per kernel row: a counted latency, or one of the codes above
  std::vector<std::uint8_t> high_;   // per kernel row once a wide latency is seen: bits 32-39 of it, else 0
  bool found_again_ = false;         // some kept_ is kFoundAgain
};

// analyze_launches over launches already found.
std::vector<LaunchStats> analyze_launches(const trace::TraceModel& model, const KernelLaunches& launches);

}  // namespace gpuprof::analysis
