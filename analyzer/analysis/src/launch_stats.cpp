#include "gpuprof/analysis/launch_stats.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "gpuprof/analysis/kernel_launch.hpp"

namespace gpuprof::analysis {

std::vector<LaunchStats> analyze_launches(const trace::TraceModel& model, const CorrelationIndex& correlations) {
  std::map<std::int32_t, std::vector<std::int64_t>> delays;
  std::map<std::int32_t, std::pair<std::int64_t, std::int64_t>> call_span;
  std::map<std::int32_t, std::int64_t> before_call;
  std::map<std::int32_t, std::int64_t> graph_kernels;
  const GraphLaunchNames graph_launches(model);
  std::map<std::int32_t, std::size_t> device_kernels;
  for (const auto& slice : model.kernel_streams) device_kernels[slice.device] += slice.end - slice.begin;
  for (const auto& [device, count] : device_kernels) delays[device].reserve(count);
  // Kernels are grouped by device, so one lookup per stream slice is enough.
  for (const auto& slice : model.kernel_streams) {
    auto& device_delays = delays[slice.device];
    auto& span = call_span.try_emplace(slice.device, std::numeric_limits<std::int64_t>::max(),
                                       std::numeric_limits<std::int64_t>::min()).first->second;
    for (std::size_t row = slice.begin; row < slice.end; ++row) {
      const auto launch = kernel_launch(model, correlations, graph_launches, row);
      if (launch.status == LaunchStatus::starts_before_call) ++before_call[slice.device];
      if (launch.status == LaunchStatus::graph_node) ++graph_kernels[slice.device];
      if (launch.status != LaunchStatus::counted) continue;
      const auto call_start = launch.call_start_ns;
      device_delays.push_back(launch.latency_ns);
      span.first = std::min(span.first, call_start);
      span.second = std::max(span.second, call_start);
    }
  }
  std::vector<LaunchStats> result;
  for (auto& [device, values] : delays) {
    if (values.empty() && before_call[device] == 0 && graph_kernels[device] == 0) continue;
    LaunchStats stats;
    stats.device = device;
    stats.starts_before_call = before_call[device];
    stats.graph_kernels = graph_kernels[device];
    stats.delay = duration_stats(values);
    const auto [first, last] = call_span[device];
    if (values.size() > 1 && last > first) {
      stats.launches_per_second = static_cast<double>(values.size() - 1) * 1e9 / static_cast<double>(last - first);
    }
    result.push_back(stats);
  }
  return result;
}

}  // namespace gpuprof::analysis
