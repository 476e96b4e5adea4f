#include "gpuprof/analysis/launch_stats.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "gpuprof/analysis/kernel_launches.hpp"

namespace gpuprof::analysis {

std::vector<LaunchStats> analyze_launches(const trace::TraceModel& model, const CorrelationIndex& correlations) {
  return analyze_launches(model, KernelLaunches(model, correlations));
}

std::vector<LaunchStats> analyze_launches(const trace::TraceModel& model, const KernelLaunches& launches) {
  // Kernels are grouped by device: one device's delays at a time, in one array sized for the largest
  // device (every device's at once was 40 MB at 10 M events, beside the other analyses' arrays).
  std::map<std::int32_t, std::vector<const trace::StreamSlice*>> slices;
  std::map<std::int32_t, std::size_t> device_kernels;
  for (const auto& slice : model.kernel_streams) {
    slices[slice.device].push_back(&slice);
    device_kernels[slice.device] += slice.end - slice.begin;
  }
  std::size_t largest = 0;
  for (const auto& [device, count] : device_kernels) largest = std::max(largest, count);
  std::vector<std::int64_t> values;
  values.reserve(largest);
  std::vector<LaunchStats> result;
  for (const auto& [device, device_slices] : slices) {
    values.clear();
    std::int64_t before_call = 0, graph_kernels = 0;
    std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = std::numeric_limits<std::int64_t>::min();
    for (const auto* slice : device_slices) {
      for (std::size_t row = slice->begin; row < slice->end; ++row) {
        const auto launch = launches(row);
        if (launch.status == LaunchStatus::starts_before_call) ++before_call;
        if (launch.status == LaunchStatus::graph_node) ++graph_kernels;
        if (launch.status != LaunchStatus::counted) continue;
        values.push_back(launch.latency_ns);
        first = std::min(first, launch.call_start_ns);
        last = std::max(last, launch.call_start_ns);
      }
    }
    if (values.empty() && before_call == 0 && graph_kernels == 0) continue;
    LaunchStats stats;
    stats.device = device;
    stats.starts_before_call = before_call;
    stats.graph_kernels = graph_kernels;
    stats.delay = duration_stats(values);
    if (values.size() > 1 && last > first) {
      stats.launches_per_second = static_cast<double>(values.size() - 1) * 1e9 / static_cast<double>(last - first);
    }
    result.push_back(stats);
  }
  return result;
}

}  // namespace gpuprof::analysis
