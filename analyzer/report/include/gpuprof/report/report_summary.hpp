#pragma once

// The answers a report opens with (where the step period goes, the largest
// batch gaps, exposed transfers, the job's slowest rank and stragglers, data
// loss), gathered from the analyses that already ran. No new analysis: every
// figure is a sum, share or extreme of RankAnalysis / StragglerReport values,
// so it matches the tables below it. Each writer formats it its own way.

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "gpuprof/rank/gap_summary.hpp"
#include "gpuprof/report/idle_summary.hpp"
#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

struct DeviceRef {
  std::int32_t rank = 0, device = 0;
};

enum class PeriodPartKind { computation, exposed_comm, exposed_memcpy, idle_in_steps, batch_gaps };
inline constexpr std::size_t kPeriodParts = 5;
std::string_view to_string(PeriodPartKind kind);  // "computation", "exposed communication", ...

// One part of the windows: its time, its share of the windows (shares of the
// five parts add up to 1), and its lowest and highest share over devices.
struct PeriodPart {
  PeriodPartKind kind = PeriodPartKind::computation;
  std::int64_t total_ns = 0;  // summed over the windows of every device
  double share = 0;           // of the summed windows
  double per_step_ns = 0;     // share × mean step period (0 without steps)
  double min_share = 0, max_share = 0;
  DeviceRef min_device, max_device;
};

struct PeriodSummary {
  std::int32_t ranks = 0, devices = 0;
  // Some device has step windows; otherwise every window is an activity span and there is no period.
  bool from_steps = false;
  bool all_warmup = false;          // some device had only warm-up steps (its steady state is all steps)
  std::int64_t windows = 0;         // steady windows summed over devices (span windows count 1)
  std::int64_t window_ns = 0;       // their total length
  double step_ns = 0;               // mean step period pooled over devices with steps
  double min_step_ns = 0, max_step_ns = 0;  // lowest and highest mean step period of one device
  DeviceRef min_step_device, max_step_device;
  std::array<PeriodPart, kPeriodParts> parts{};  // in PeriodPartKind order
};

struct GapHighlight {
  std::int32_t rank = 0;
  analysis::BatchGap gap;
};

struct GapsSummary {
  std::int64_t count = 0, idle_ns = 0;
  std::vector<analysis::GapCauseTotal> causes;  // causes with gaps, most idle time first
  std::vector<GapHighlight> largest;            // by idle time, longest first (at most kLargestGaps)
};
inline constexpr std::size_t kLargestGaps = 3;

// Copies of one kind over every rank, with the (source, destination) pair that left the most time exposed.
struct KindExposure {
  trace::CopyKind kind = trace::CopyKind::unknown;
  analysis::TransferTotals totals;
  std::int32_t worst_rank = 0;
  analysis::TransferPair worst_pair;
};

struct TransfersSummary {
  std::int64_t exposed_ns = 0;      // over every kind and rank
  std::vector<KindExposure> kinds;  // kinds with copies, most exposed time first
};

struct StragglerLine {
  std::int32_t rank = 0;
  double mean_lateness_ns = 0;  // mean start lateness vs the earliest rank
  double share_of_step = 0;     // of the job's mean step
  // What its host did while it was late, per step on average (adds up to mean_lateness_ns but for rounding).
  std::array<double, idle::kCoveringCauses> lateness_causes_ns{};
  idle::IdleCause cause = idle::IdleCause::unrecorded;  // covering at least half of the lateness, else mixed
  double before_trace_ns = 0;  // of the unrecorded time, the part before the rank's host trace begins
  // Idle time of the other ranks' GPUs, per step, that waited for this rank in their steady windows
  // (their peer_wait for it, job::PeerWaitPiece), over the same steps as the lateness: what makes it a
  // straggler (job::RankTiming::mean_caused_wait_ns).
  double peer_wait_caused_ns = 0;
  std::int64_t last_arrivals = 0;  // matched collectives it started last at
};

struct RankShare {
  std::int32_t rank = 0;
  double share = 0;
};

struct JobSummaryLines {
  job::JobSummary job;
  std::vector<StragglerLine> stragglers;  // the job's stragglers, most waits caused first
  // Exposed communication as a share of each rank's steady windows: lowest and highest rank.
  RankShare least_exposed_comm, most_exposed_comm;
  // Mean wait inside collectives per step: the rank that waits longest.
  std::int32_t longest_wait_rank = 0;
  double longest_wait_ns = 0;
};

struct DataLossSummary {
  std::int64_t warnings = 0;
  std::vector<std::int32_t> ranks;  // ranks with at least one warning
};

struct ReportSummary {
  PeriodSummary period;
  IdleSummary idle;
  GapsSummary gaps;
  TransfersSummary transfers;
  std::optional<JobSummaryLines> job;  // several ranks only
  DataLossSummary data_loss;
};

ReportSummary summarize_report(const ReportInput& input);

}  // namespace gpuprof::report
