#include "gpuprof/analysis/time_breakdown.hpp"

#include <algorithm>
#include <optional>

#include "gpuprof/units/units.hpp"

namespace gpuprof::analysis {
namespace {

double share_hidden(std::int64_t total, std::int64_t exposed) {
  return total > 0 ? static_cast<double>(total - exposed) / static_cast<double>(total) : 0.0;
}

// `steps` sorted by (device, start).
// Fills the idle tallies of a window's breakdown when there are host causes to read.
struct IdleCauses {
  std::optional<idle::IdleAttributor> attributor;
  std::vector<idle::IdleInterval>* intervals = nullptr;

  void fill(std::int64_t step, std::int64_t start, std::int64_t tail, std::int64_t end, Breakdown& breakdown) {
    if (attributor) {
      attributor->window(step, start, tail, end, breakdown.idle_in_steps_causes, breakdown.batch_gap_causes, intervals);
    }
  }
};

void add_step_windows(const DeviceActivity& device, const std::vector<GpuStep>& steps, DeviceBreakdown& entry,
                      std::vector<StepBreakdown>& out, IdleCauses& causes) {
  const auto first = out.size();
  for (const auto& step : steps) {
    if (step.device != device.device) continue;
    out.push_back({step, breakdown_in(device, step.start_ns, step.last_work_ns, step.end_ns)});
    causes.fill(step.step, step.start_ns, step.last_work_ns, step.end_ns, out.back().breakdown);
  }
  if (out.size() == first) return;
  entry.source = WindowSource::steps;
  entry.steps = static_cast<std::int64_t>(out.size() - first);
  const bool all_warmup = std::all_of(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                                      [](const StepBreakdown& window) { return window.step.warmup; });
  entry.steady_is_all_steps = all_warmup;
  for (auto index = first; index < out.size(); ++index) {
    const auto& window = out[index].breakdown;
    entry.total += window;
    if (out[index].step.warmup && !all_warmup) continue;
    entry.steady += window;
    ++entry.steady_steps;
    if (index + 1 < out.size()) {
      units::add_saturating(entry.period_ns, window.window_ns);
      ++entry.period_steps;
      entry.period += window;
    }
  }
}

}  // namespace

Breakdown& Breakdown::operator+=(const Breakdown& other) {
  units::add_saturating(window_ns, other.window_ns);
  units::add_saturating(computation_ns, other.computation_ns);
  units::add_saturating(total_comm_ns, other.total_comm_ns);
  units::add_saturating(exposed_comm_ns, other.exposed_comm_ns);
  units::add_saturating(total_memcpy_ns, other.total_memcpy_ns);
  units::add_saturating(exposed_memcpy_ns, other.exposed_memcpy_ns);
  units::add_saturating(busy_ns, other.busy_ns);
  units::add_saturating(idle_ns, other.idle_ns);
  units::add_saturating(idle_in_steps_ns, other.idle_in_steps_ns);
  units::add_saturating(batch_gap_ns, other.batch_gap_ns);
  idle_in_steps_causes += other.idle_in_steps_causes;
  batch_gap_causes += other.batch_gap_causes;
  return *this;
}

double Breakdown::comm_hidden_share() const { return share_hidden(total_comm_ns, exposed_comm_ns); }
double Breakdown::memcpy_hidden_share() const { return share_hidden(total_memcpy_ns, exposed_memcpy_ns); }

double DeviceBreakdown::average_step_ns() const {
  if (period_steps > 0) return static_cast<double>(period_ns) / static_cast<double>(period_steps);
  return steady_steps > 0 ? static_cast<double>(steady.window_ns) / static_cast<double>(steady_steps) : 0.0;
}

std::int64_t DeviceBreakdown::step_basis_windows() const {
  if (period_steps > 0) return period_steps;
  return source == WindowSource::steps ? steady_steps : 1;
}

Breakdown breakdown_in(const DeviceActivity& activity, std::int64_t start_ns, std::int64_t end_ns) {
  return breakdown_in(activity, start_ns, end_ns, end_ns);
}

Breakdown breakdown_in(const DeviceActivity& activity, std::int64_t start_ns, std::int64_t last_work_ns,
                       std::int64_t end_ns) {
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
  // Other GPU work (not launched inside any step) may run in the tail, so the gap is the tail's idle time.
  const auto tail_start = std::clamp(last_work_ns, start_ns, end_ns);
  result.batch_gap_ns = (end_ns - tail_start) - length_within(activity.busy, tail_start, end_ns);
  result.idle_in_steps_ns = result.idle_ns - result.batch_gap_ns;
  return result;
}

double mean_step_period_ns(const std::vector<const DeviceBreakdown*>& devices) {
  std::int64_t total = 0, count = 0;
  for (const auto* device : devices) {
    if (device == nullptr || device->source != WindowSource::steps) continue;
    const bool periods = device->period_steps > 0;
    units::add_saturating(total, periods ? device->period_ns : device->steady.window_ns);
    count += periods ? device->period_steps : device->steady_steps;
  }
  return count > 0 ? static_cast<double>(total) / static_cast<double>(count) : 0.0;
}

BreakdownResult compute_breakdown(const std::vector<DeviceActivity>& activity, const std::vector<GpuStep>& steps,
                                  bool use_steps, const idle::HostCauses* host,
                                  std::vector<idle::IdleInterval>* intervals) {
  BreakdownResult result;
  for (const auto& device : activity) {
    // Devices listed in the trace but never used would only add rows of zeros.
    if (device.empty()) continue;
    DeviceBreakdown entry;
    entry.device = device.device;
    IdleCauses causes;
    causes.intervals = intervals;
    if (host != nullptr) causes.attributor.emplace(device, host->device(device.device));
    if (use_steps) add_step_windows(device, steps, entry, result.steps, causes);
    if (entry.steps == 0) {
      entry.total = breakdown_in(device, device.first_start(), device.last_end());
      causes.fill(0, device.first_start(), device.last_end(), device.last_end(), entry.total);
      entry.steady = entry.total;
    }
    result.devices.push_back(entry);
  }
  return result;
}

}  // namespace gpuprof::analysis
