#pragma once

// Every analysis of one trace file (one rank), run in order over one TraceModel.

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpuprof/analysis/analysis_options.hpp"
#include "gpuprof/analysis/classification.hpp"
#include "gpuprof/analysis/collectives.hpp"
#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/device_activity.hpp"
#include "gpuprof/rank/gaps.hpp"
#include "gpuprof/idle/host_blockers.hpp"
#include "gpuprof/idle/interval_host_activity.hpp"
#include "gpuprof/idle/peer_copy_partners.hpp"
#include "gpuprof/analysis/kernel_summary.hpp"
#include "gpuprof/analysis/launch_stats.hpp"
#include "gpuprof/rank/time_breakdown.hpp"
#include "gpuprof/analysis/transfers.hpp"
#include "gpuprof/memory/memory_use.hpp"
#include "gpuprof/summaries/host_summary_report.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

struct RankAnalysis {
  std::string path;
  std::int32_t rank = 0;
  // The first GPU activity of the trace: reports show time points relative to it.
  std::int64_t trace_start_ns = 0;
  std::vector<std::string> notices;   // things the reader should know (fallbacks)
  std::vector<std::string> warnings;  // data loss recorded in collector_stats, one line each
  std::vector<DeviceBreakdown> devices;
  std::vector<StepBreakdown> steps;
  std::vector<BatchGap> gaps;
  // What the threads that issue the rank's GPU work did during each gap (same order as `gaps`): the app's
  // details of a clicked gap band, in the report's JSON.
  std::vector<idle::HostActivityDuring> gap_host_activity;
  // Every idle interval with its causes, by device and time; only with AnalysisOptions::keep_idle_intervals.
  std::vector<idle::IdleInterval> idle_intervals;
  // The host activity of the longest kept intervals (AnalysisOptions::interval_host_activity), by their index
  // in idle_intervals: the app's details of a clicked interval, in the JSON's idle_intervals rows.
  std::unordered_map<std::size_t, idle::HostActivityDuring> interval_host_activity;
  // The idle pieces just before communication work or a peer copy, with their evidence: the job gives the
  // part before a late partner device or rank arrived to peer_wait (job/peer_waits.hpp). By device and time.
  std::vector<idle::IdleEvidence> idle_before_peer_work;
  // Each peer copy's partner device and when its work before the copy ended, for the same peer_wait.
  idle::PeerCopyPartners peer_copies;
  std::vector<idle::HostBlocker> host_blockers;  // the host calls under which the GPUs idled longest
  TransferReport transfers;
  CollectiveReport collectives;
  KernelSummary kernels;
  std::vector<LaunchStats> launches;
  summaries::HostSummaries host;  // NVTX ranges, API calls, launch latency per kernel, launch queues
  memory::MemoryUse memory;       // GPU memory in use over time; only with AnalysisOptions::memory_use
};

// Points kept per device in RankAnalysis::memory's timelines (the largest of each slice of time).
inline constexpr std::size_t kMemoryTimelinePoints = 2000;

// Throws TraceError::bad_input for a trace without GPU activity or an invalid pattern.
// `rank`, when given, is the rank the caller settled on (job::assign_ranks:
// meta, --ranks or position); otherwise the trace's own, or 0.
RankAnalysis analyze_rank(const trace::TraceModel& model, const AnalysisOptions& options,
                          std::optional<std::int32_t> rank = std::nullopt);

// analyze_rank and what it built on the way, for callers that analyse the same model
// further (job summaries, the desktop app): classifying names and building the device
// activity of 10 M events are the costly steps, so they are done once.
struct RankAnalysisParts {
  RankAnalysis analysis;
  std::vector<KernelCategory> categories;  // per StringId, launch context included
  std::vector<DeviceActivity> activity;
  std::unique_ptr<CorrelationIndex> correlations;  // of the model's API calls
  std::unique_ptr<idle::HostCauses> host;          // what the host threads did, per device
};
RankAnalysisParts analyze_rank_parts(const trace::TraceModel& model, const AnalysisOptions& options,
                                     std::optional<std::int32_t> rank = std::nullopt);

}  // namespace gpuprof::analysis
