#include "gpuprof/analysis/time_breakdown.hpp"

namespace gpuprof::analysis {
namespace {

double share_hidden(std::int64_t total, std::int64_t exposed) {
  return total > 0 ? static_cast<double>(total - exposed) / static_cast<double>(total) : 0.0;
}

}  // namespace

Breakdown& Breakdown::operator+=(const Breakdown& other) {
  window_ns += other.window_ns;
  computation_ns += other.computation_ns;
  total_comm_ns += other.total_comm_ns;
  exposed_comm_ns += other.exposed_comm_ns;
  total_memcpy_ns += other.total_memcpy_ns;
  exposed_memcpy_ns += other.exposed_memcpy_ns;
  busy_ns += other.busy_ns;
  idle_ns += other.idle_ns;
  return *this;
}

double Breakdown::comm_hidden_share() const { return share_hidden(total_comm_ns, exposed_comm_ns); }
double Breakdown::memcpy_hidden_share() const { return share_hidden(total_memcpy_ns, exposed_memcpy_ns); }

Breakdown breakdown_in(const DeviceActivity& activity, std::int64_t start_ns, std::int64_t end_ns) {
  Breakdown result;
  if (end_ns <= start_ns) return result;
  result.window_ns = end_ns - start_ns;
  result.computation_ns = length_within(activity.compute, start_ns, end_ns);
  result.total_comm_ns = length_within(activity.comm, start_ns, end_ns);
  result.exposed_comm_ns = length_within(activity.exposed_comm, start_ns, end_ns);
  result.total_memcpy_ns = length_within(activity.memcpy, start_ns, end_ns);
  result.exposed_memcpy_ns = length_within(activity.exposed_memcpy, start_ns, end_ns);
  result.busy_ns = length_within(activity.busy, start_ns, end_ns);
  result.idle_ns = result.window_ns - result.busy_ns;
  return result;
}

BreakdownResult compute_breakdown(const std::vector<DeviceActivity>& activity, const std::vector<GpuStep>& steps,
                                  bool use_steps) {
  BreakdownResult result;
  for (const auto& device : activity) {
    // Devices listed in the trace but never used would only add rows of zeros.
    if (device.empty()) continue;
    DeviceBreakdown entry;
    entry.device = device.device;
    if (use_steps) {
      for (const auto& step : steps) {
        if (step.device != device.device) continue;
        const auto window = breakdown_in(device, step.start_ns, step.end_ns);
        result.steps.push_back({step, window});
        entry.total += window;
        ++entry.steps;
        if (!step.warmup) entry.steady += window, ++entry.steady_steps;
      }
    }
    if (entry.steps > 0) {
      entry.source = WindowSource::steps;
    } else {
      entry.total = breakdown_in(device, device.first_start(), device.last_end());
      entry.steady = entry.total;
    }
    result.devices.push_back(entry);
  }
  return result;
}

}  // namespace gpuprof::analysis
