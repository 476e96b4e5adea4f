#pragma once

// Where the time of each device goes (DESIGN.md, "Window" and the union
// arithmetic): computation, communication and copies, exposed or hidden.

#include <cstdint>
#include <optional>
#include <vector>

#include "gpuprof/analysis/device_activity.hpp"
#include "gpuprof/analysis/steps.hpp"
#include "gpuprof/idle/idle_attribution.hpp"
#include "gpuprof/idle/idle_cause.hpp"

namespace gpuprof::analysis {

struct Breakdown {
  std::int64_t window_ns = 0, computation_ns = 0, total_comm_ns = 0, exposed_comm_ns = 0, total_memcpy_ns = 0,
               exposed_memcpy_ns = 0, busy_ns = 0, idle_ns = 0;
  // idle_ns = idle_in_steps_ns + batch_gap_ns: the batch gap is the idle part of the window's tail after
  // the step's last GPU work.
  std::int64_t idle_in_steps_ns = 0, batch_gap_ns = 0;
  // Their idle time by cause (DESIGN.md, "Idle causes"): each adds up to its idle time when host causes
  // were attributed (compute_breakdown with HostCauses), else stays empty.
  idle::IdleTally idle_in_steps_causes, batch_gap_causes;

  Breakdown& operator+=(const Breakdown& other);
  // Share of communication (copies) that ran while the device computed, 0..1; 0 without any.
  double comm_hidden_share() const;
  double memcpy_hidden_share() const;
  friend bool operator==(const Breakdown&, const Breakdown&) = default;
};

// The breakdown of one window [start, end) of one device whose step's own GPU
// work ends at last_work (clamped into the window; end for a span window).
Breakdown breakdown_in(const DeviceActivity& activity, std::int64_t start_ns, std::int64_t last_work_ns,
                       std::int64_t end_ns);
Breakdown breakdown_in(const DeviceActivity& activity, std::int64_t start_ns, std::int64_t end_ns);

struct StepBreakdown {
  GpuStep step;
  Breakdown breakdown;  // of the step's window, batch gap included
};

enum class WindowSource { steps, span };

struct DeviceBreakdown {
  std::int32_t device = 0;
  WindowSource source = WindowSource::span;
  Breakdown total;   // summed over every window
  Breakdown steady;  // windows that are not warm-up (equals total for a span window)
  std::int64_t steps = 0, steady_steps = 0;
  // Every step is a warm-up step, so `steady` holds all of them (DESIGN.md, "Steady state").
  bool steady_is_all_steps = false;
  // Steady windows that another step follows: whole step periods, batch gap included. The last
  // window ends with the last GPU work, so it is a period only when no other step is there.
  std::int64_t period_steps = 0, period_ns = 0;
  Breakdown period;  // summed over those period_steps windows
  // Mean step period over period_steps, else over every steady window; 0 without windows.
  double average_step_ns() const;
  // The windows per-step figures are taken over (the summary, compare): the whole periods when there are
  // any, else every steady window; and how many there are (an activity span counts 1).
  const Breakdown& step_basis() const { return period_steps > 0 ? period : steady; }
  std::int64_t step_basis_windows() const;
};

// Mean step period pooled over several devices (of one or several ranks): each
// device adds its whole periods, or its steady windows when it has none.
double mean_step_period_ns(const std::vector<const DeviceBreakdown*>& devices);

struct BreakdownResult {
  std::vector<DeviceBreakdown> devices;
  std::vector<StepBreakdown> steps;  // sorted by (device, start)
};

// Uses the device's steps as windows when `use_steps` and it has any; otherwise its activity span.
// Devices without any GPU activity are left out. With `host`, every idle interval gets its causes
// (listed in `intervals` when given; the pieces of idle runs that communication work or a peer copy ends,
// with their evidence, in `before_peer_work` when given).
BreakdownResult compute_breakdown(const std::vector<DeviceActivity>& activity, const std::vector<GpuStep>& steps,
                                  bool use_steps, const idle::HostCauses* host = nullptr,
                                  std::vector<idle::IdleInterval>* intervals = nullptr,
                                  std::vector<idle::IdleEvidence>* before_peer_work = nullptr);

// Sums every step-window device's totals (total, steady, period) again from its windows in `steps`
// (sorted by device, then start), after their idle causes changed.
void resum_step_windows(const std::vector<StepBreakdown>& steps, std::vector<DeviceBreakdown>& devices);

}  // namespace gpuprof::analysis
