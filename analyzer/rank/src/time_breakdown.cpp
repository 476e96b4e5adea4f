#include "gpuprof/rank/time_breakdown.hpp"

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

// Sums the windows out[first, last) of one device into `entry` (its totals start from zero).
void sum_windows(const std::vector<StepBreakdown>& out, std::size_t first, std::size_t last, DeviceBreakdown& entry) {
  entry.source = WindowSource::steps;
  entry.steps = static_cast<std::int64_t>(last - first);
  entry.total = entry.steady = entry.period = Breakdown{};
  entry.steady_steps = entry.period_steps = entry.period_ns = 0;
  const bool all_warmup = std::all_of(out.begin() + static_cast<std::ptrdiff_t>(first),
                                      out.begin() + static_cast<std::ptrdiff_t>(last),
                                      [](const StepBreakdown& window) { return window.step.warmup; });
  entry.steady_is_all_steps = all_warmup;
  for (auto index = first; index < last; ++index) {
    const auto& window = out[index].breakdown;
    entry.total += window;
    if (out[index].step.warmup && !all_warmup) continue;
    entry.steady += window;
    ++entry.steady_steps;
    if (index + 1 < last) {
      units::add_saturating(entry.period_ns, window.window_ns);
      ++entry.period_steps;
      entry.period += window;
    }
  }
}

// Orders windows (sorted by device, then start) against a device number.
struct ByDevice {
  bool operator()(const StepBreakdown& window, std::int32_t device) const { return window.step.device < device; }
  bool operator()(std::int32_t device, const StepBreakdown& window) const { return device < window.step.device; }
};

void add_step_windows(const DeviceActivity& device, const std::vector<GpuStep>& steps, DeviceBreakdown& entry,
                      std::vector<StepBreakdown>& out, IdleCauses& causes) {
  const auto first = out.size();
  for (const auto& step : steps) {
    if (step.device != device.device) continue;
    out.push_back({step, breakdown_in(device, step.start_ns, step.last_work_ns, step.end_ns)});
    causes.fill(step.step, step.start_ns, step.last_work_ns, step.end_ns, out.back().breakdown);
  }
  if (out.size() > first) sum_windows(out, first, out.size(), entry);
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
                                  std::vector<idle::IdleInterval>* intervals,
                                  std::vector<idle::IdleEvidence>* before_peer_work) {
  BreakdownResult result;
  for (const auto& device : activity) {
    // Devices listed in the trace but never used would only add rows of zeros.
    if (device.empty()) continue;
    DeviceBreakdown entry;
    entry.device = device.device;
    IdleCauses causes;
    causes.intervals = intervals;
    if (host != nullptr) causes.attributor.emplace(device, host->device(device.device), before_peer_work);
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

void resum_step_windows(const std::vector<StepBreakdown>& steps, std::vector<DeviceBreakdown>& devices) {
  for (auto& entry : devices) {
    if (entry.source != WindowSource::steps) continue;
    const auto [first, last] = std::equal_range(steps.begin(), steps.end(), entry.device, ByDevice{});
    sum_windows(steps, static_cast<std::size_t>(first - steps.begin()), static_cast<std::size_t>(last - steps.begin()),
                entry);
  }
}

}  // namespace gpuprof::analysis
