#include "gpuprof/rank/rank_analysis.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/time_base_notice.hpp"
#include "gpuprof/analysis/data_loss.hpp"
#include "gpuprof/analysis/device_activity.hpp"
#include "gpuprof/analysis/kernel_launches.hpp"
#include "gpuprof/analysis/steps.hpp"
#include "gpuprof/idle/host_blockers.hpp"
#include "gpuprof/rank/side_thread.hpp"
#include "gpuprof/summaries/host_summaries.hpp"
#include "gpuprof/summaries/launch_tables.hpp"
#include "gpuprof/trace/stage_timings.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::analysis {
namespace {

// A steady state of only warm-up steps would be a table of zeros.
void add_steady_state_notice(RankAnalysis& result) {
  for (const auto& device : result.devices) {
    if (!device.steady_is_all_steps) continue;
    result.notices.push_back("every step of device " + std::to_string(device.device) + " is a warm-up step (" +
                             std::to_string(device.steps) + " in all); the steady state falls back to all steps");
  }
}

// Collective rows whose kernel cannot be told are left out of the bandwidth table; say how many.
void add_collective_notice(RankAnalysis& result) {
  const auto& collectives = result.collectives;
  if (collectives.unmatched + collectives.ambiguous == 0) return;
  result.notices.push_back(std::to_string(collectives.unmatched + collectives.ambiguous) + " of " +
                           std::to_string(collectives.rows) + " collectives left out of the bandwidth table: " +
                           std::to_string(collectives.unmatched) + " name no kernel on their device, " +
                           std::to_string(collectives.ambiguous) + " name several (CUDA graphs)");
}

// Peer copies that name no second device of the trace cannot wait for a partner: say how many were left out.
void add_peer_copy_notice(RankAnalysis& result) {
  const auto ignored = result.peer_copies.ignored;
  if (ignored == 0) return;
  result.notices.push_back(fmt::format("{} peer-to-peer {} no second device of this trace (source and destination "
                                       "the same, unknown, or not a device of the trace): left out of peer_wait",
                                       ignored, ignored == 1 ? "copy names" : "copies name"));
}

std::int64_t first_gpu_activity(const std::vector<DeviceActivity>& activity) {
  std::optional<std::int64_t> first;
  for (const auto& device : activity) {
    if (!device.empty()) first = std::min(first.value_or(device.first_start()), device.first_start());
  }
  return first.value_or(0);
}

// The issuing threads' activity under each gap and the longest kept idle intervals, as the app shows it
// for a clicked gap band or interval.
void add_host_activity(const trace::TraceModel& model, const idle::HostCauses& host,
                       const std::vector<bool>& step_names, std::size_t interval_limit, RankAnalysis& result) {
  if (result.gaps.empty() && result.idle_intervals.empty()) return;
  const idle::HostActivityIndex index(
      model, host.any_device().threads,
      [&](trace::StringId name) { return name < step_names.size() && step_names[name]; },
      host.pageable_copy_calls(), host.phase_range_rows());
  result.gap_host_activity.reserve(result.gaps.size());
  for (const auto& gap : result.gaps) {
    auto& activity = result.gap_host_activity.emplace_back(index.during(gap.start_ns, gap.end_ns));
    activity.launched_by_thread = idle::launching_thread(host.device(gap.device), gap.end_ns);
  }
  const auto& intervals = result.idle_intervals;
  std::vector<std::size_t> longest(intervals.size());
  std::iota(longest.begin(), longest.end(), std::size_t{0});
  const auto length = [&](std::size_t i) { return intervals[i].end_ns - intervals[i].start_ns; };
  const std::size_t kept = std::min(interval_limit, longest.size());
  // Longest first, ties in device and time order: the JSON's own order within a rank.
  std::partial_sort(longest.begin(), longest.begin() + static_cast<std::ptrdiff_t>(kept), longest.end(),
                    [&](std::size_t a, std::size_t b) {
                      return std::make_tuple(-length(a), intervals[a].device, intervals[a].start_ns) <
                             std::make_tuple(-length(b), intervals[b].device, intervals[b].start_ns);
                    });
  for (std::size_t k = 0; k < kept; ++k) {
    const auto& interval = intervals[longest[k]];
    auto activity = index.during(interval.start_ns, interval.end_ns);
    activity.launched_by_thread = idle::launching_thread(host.device(interval.device), interval.end_ns);
    result.interval_host_activity.emplace(longest[k], std::move(activity));
  }
}

// The three launch tables share each kernel's launch, found once (kernel_launches.hpp): one task, the side
// thread's first, queued as soon as the correlation index exists.
void add_launch_tables(const trace::TraceModel& model, const CorrelationIndex& correlations,
                       const AnalysisOptions& options, SideThread& side, RankAnalysis& result) {
  side.add([&] {
    const auto launches = trace::timed("launch tables: each kernel's launch", [&] {
      return std::make_unique<KernelLaunches>(model, correlations);
    });
    if (options.host_summaries) {
      result.host.launch_latency = trace::timed("host summaries: launch latency", [&] {
        return summaries::launch_latency_by_kernel(model, *launches);
      });
      result.host.launch_queues = trace::timed("host summaries: launch queues", [&] {
        return summaries::launch_queues(model, *launches);
      });
    }
    result.launches = trace::timed("launches", [&] { return analyze_launches(model, *launches); });
  });
}

// The rest of the side thread's analyses, longest first: at the end this thread takes the short ones left.
void add_summaries(const trace::TraceModel& model, const NameClasses& classes, const AnalysisOptions& options,
                   SideThread& side, RankAnalysis& result) {
  side.add([&] {
    result.kernels = trace::timed("kernel summary", [&] { return summarize_kernels(model, classes, options.top_kernels); });
  });
  if (options.host_summaries) {
    auto& host = result.host;
    side.add([&] { host.api_calls = trace::timed("host summaries: API calls", [&] { return summaries::api_summary(model); }); });
    side.add([&] { host.ranges = trace::timed("host summaries: ranges", [&] { return summaries::range_summary(model); }); });
  }
}

}  // namespace

RankAnalysis analyze_rank(const trace::TraceModel& model, const AnalysisOptions& options,
                          std::optional<std::int32_t> rank) {
  return analyze_rank_parts(model, options, rank).analysis;
}

RankAnalysisParts analyze_rank_parts(const trace::TraceModel& model, const AnalysisOptions& options,
                                     std::optional<std::int32_t> rank) {
  if (model.kernels.size() + model.memcpys.size() + model.memsets.size() == 0) {
    throw TraceError::bad_input(model.path, "no GPU activity (no kernels, copies or memsets) to analyse");
  }
  RankAnalysisParts parts;
  RankAnalysis& result = parts.analysis;
  result.path = model.path;
  result.rank = rank ? *rank : model.rank().value_or(0);
  result.warnings = data_loss_warnings(model);
  const KernelClassifier classifier(options.comm_patterns);
  parts.correlations = trace::timed("correlation index", [&] { return std::make_unique<CorrelationIndex>(model.api_calls); });
  const CorrelationIndex& correlations = *parts.correlations;
  // The kernel table, the launch tables and the host summaries read only what is built before them and each
  // writes its own member of the result: they go to the second core, each as soon as its inputs exist, and what
  // the side thread has not started when this thread is done runs here (side_thread.hpp). Results are stored in
  // the same places as before, so output is unchanged. `classes` outlives the side thread that reads it.
  NameClasses classes;
  SideThread side;
  add_launch_tables(model, correlations, options, side, result);
  if (auto notice = trace::timed("time base", [&] { return time_base_notice(model, correlations); })) {
    result.notices.push_back(std::move(*notice));
  }
  classes = trace::timed("kernel classes", [&] { return classifier.classify_model(model, correlations); });
  add_summaries(model, classes, options, side, result);
  const auto& categories = classes.categories;
  parts.activity = trace::timed("device activity", [&] { return build_device_activity(model, categories); });
  const auto& activity = parts.activity;
  result.trace_start_ns = first_gpu_activity(activity);
  const auto detection = trace::timed("steps", [&] { return find_steps(model, options, correlations); });
  for (const auto& rejected : detection.rejected) {
    result.notices.push_back(fmt::format("GPU {}: its GPU-side step annotations hold {:.1f}% of the GPU work their "
                                         "host steps launched (under {:.0f}%); the host steps projected onto the GPU "
                                         "are its steps instead",
                                         rejected.device, 100.0 * rejected.coverage, 100.0 * kAnnotationCoverage));
  }
  const bool use_steps = options.window == WindowMode::steps && !detection.steps.empty();
  if (options.window == WindowMode::steps && detection.steps.empty()) {
    result.notices.push_back(detection.pattern_matched
                                 ? "step annotations match the step pattern but launched no GPU work; using each "
                                   "device's activity span as the window"
                                 : "the step pattern '" + options.step_pattern +
                                       "' matches no annotation; using each device's activity span as the window");
  }
  parts.host = trace::timed("host causes", [&] {
    return std::make_unique<idle::HostCauses>(model, correlations, detection.step_names);
  });
  const auto& host = *parts.host;
  auto breakdown = trace::timed("breakdown and idle", [&] {
    return compute_breakdown(activity, detection.steps, use_steps, &host,
                             options.keep_idle_intervals ? &result.idle_intervals : nullptr,
                             &result.idle_before_peer_work);
  });
  result.devices = std::move(breakdown.devices);
  result.steps = std::move(breakdown.steps);
  if (use_steps) result.gaps = find_batch_gaps(result.steps);
  trace::timed("host activity", [&] {
    add_host_activity(model, host, detection.step_names, options.interval_host_activity, result);
  });
  result.host_blockers =
      trace::timed("host blockers", [&] { return idle::find_host_blockers(model, correlations, host, activity); });
  result.peer_copies = trace::timed("peer copies", [&] { return idle::find_peer_copy_partners(model); });
  add_peer_copy_notice(result);
  add_steady_state_notice(result);
  result.transfers = trace::timed("transfers", [&] { return analyze_transfers(model, activity); });
  result.collectives = trace::timed("collectives", [&] { return analyze_collectives(model); });
  add_collective_notice(result);
  if (options.memory_use) {
    result.memory = trace::timed("memory", [&] { return memory::analyze_memory(model, kMemoryTimelinePoints); });
    result.notices.insert(result.notices.end(), result.memory.notices.begin(), result.memory.notices.end());
  }
  trace::timed("side analyses left, and waiting for them", [&] { side.finish(); });
  parts.categories = std::move(classes.categories);
  return parts;
}

}  // namespace gpuprof::analysis
