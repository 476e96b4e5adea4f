#pragma once

// The analyzer's results as table models for the panels: one builder per
// panel, numbers formatted with the same units as the reports.

#include <vector>

#include "gpuprof/gui/session.hpp"
#include "gpuprof/summaries/host_summary_report.hpp"
#include "gpuprof/gui/models/table_model.hpp"

namespace gpuprof::gui {

// Time columns first (total, time %, instances, avg, med, min, max, stddev), then name, category, rank,
// communication rule and full name: the names are long and would push the times off-screen.
TableModel* make_kernel_model(const Session& session, QObject* parent);
// Rank, device, step, start (from the session start), duration, busy, idle, gap after, cause.
// Payload: QList<qint64>{start_ns, end_ns, rank index} of the step (times on the rank's own clock).
TableModel* make_step_model(const Session& session, QObject* parent);
// Rank, kind, source, destination, count, bytes, total, exposed, GB/s; per kind ("all" pairs) then per pair.
TableModel* make_transfer_model(const Session& session, QObject* parent);
// Rank, collective, ranks in the group, size (S), count, total, mean, algorithm GB/s, bus GB/s:
// the analyzer's CollectiveReport, one row per group; "-" where the trace does not say.
TableModel* make_collective_model(const Session& session, QObject* parent);

// The nsys-style host summaries (docs/summaries.md), `host` per rank index: one table of name, Time (%),
// total, instances, avg, rank, then med, min, max and stddev, as `gpuprof report --sections nvtx,api,launches`.
// The first kHostTableShownColumns are the ones a narrow dock must show whole.
enum class HostTable { ranges, api_calls, launch_latency };
inline constexpr int kHostTableShownColumns = 6;
inline constexpr int kHostTableRankColumn = 5;
TableModel* make_host_table_model(const Session& session, const std::vector<summaries::HostSummaries>& host,
                                  HostTable table, QObject* parent);
// Rank, device, kernels, max and time-weighted mean queue length, share of the time it was empty.
TableModel* make_launch_queue_model(const Session& session, const std::vector<summaries::HostSummaries>& host,
                                    QObject* parent);

// The name comes first: in a narrow dock a name scrolled out of view left rows of bare numbers.
inline constexpr int kKernelNameColumn = 0;
inline constexpr int kKernelTotalColumn = 1;
inline constexpr int kKernelInstancesColumn = 3;
inline constexpr int kKernelRankColumn = 4;

}  // namespace gpuprof::gui
