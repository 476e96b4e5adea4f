#pragma once

// "Why is my GPU idle": idle time by cause over the steady windows, pooled over
// every device and per device, and the host calls under which the GPUs idled
// longest. Sums of what the breakdowns already carry (DESIGN.md, "Idle causes").

#include <cstdint>
#include <vector>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/idle/host_blockers.hpp"
#include "gpuprof/idle/idle_cause.hpp"

namespace gpuprof::report {

struct ReportInput;

struct DeviceIdle {
  std::int32_t rank = 0, device = 0;
  std::int64_t window_ns = 0;
  idle::IdleTally in_steps, gaps;  // over the device's step-period windows (DeviceBreakdown::step_basis)
};

struct RankedBlocker {
  std::int32_t rank = 0;
  idle::HostBlocker blocker;
};

struct IdleSummary {
  std::int64_t window_ns = 0;      // step-period windows of every device
  idle::IdleTally in_steps, gaps;  // pooled over them
  std::vector<DeviceIdle> devices;
  std::vector<RankedBlocker> blockers;  // most idle time first, at most idle::kHostBlockers
  // Idle time inside steps with a cause other than mixed and unrecorded, as a share of idle inside steps.
  double explained_in_steps() const;
};

IdleSummary summarize_idle(const ReportInput& input);

// Idle time of a tally by label with shares and coverage, largest first; labels without time left out.
struct IdleLabelLine {
  idle::IdleCause label = idle::IdleCause::unrecorded;
  std::int64_t in_steps_ns = 0, gaps_ns = 0;
  double share = 0;     // of in_steps + gaps idle
  double coverage = 0;  // of the label's time, the share its cause covers
};
std::vector<IdleLabelLine> idle_lines(const idle::IdleTally& in_steps, const idle::IdleTally& gaps);

}  // namespace gpuprof::report
