#include "gpuprof/job/rank_summary.hpp"

#include "gpuprof/job/step_kernels.hpp"

#include <algorithm>
#include <map>

#include "gpuprof/analysis/classification.hpp"
#include "gpuprof/analysis/device_activity.hpp"
#include "gpuprof/analysis/run_facts.hpp"
#include "gpuprof/rank/step_gaps.hpp"
#include "gpuprof/trace/stage_timings.hpp"

namespace gpuprof::job {
namespace {

using analysis::Interval;
using analysis::IntervalSet;

std::vector<Collective> find_collectives(const trace::TraceModel& model,
                                         const std::vector<analysis::KernelCategory>& categories,
                                         const std::vector<analysis::DeviceActivity>& activity) {
  std::vector<Collective> collectives;
  const auto& table = model.kernels;
  for (std::size_t row = 0; row < table.size(); ++row) {
    const auto name = table.name[row];
    if (name >= categories.size() || categories[name] != analysis::KernelCategory::communication) continue;
    collectives.push_back({std::string(model.string(name)), table.device[row], 0, table.start_ns[row],
                           table.end_ns[row], {}, table.stream[row]});
  }
  std::sort(collectives.begin(), collectives.end(), [](const Collective& a, const Collective& b) {
    return std::tie(a.device, a.start_ns, a.end_ns, a.name) < std::tie(b.device, b.start_ns, b.end_ns, b.name);
  });
  std::map<std::pair<std::int32_t, std::string>, std::int64_t> counts;
  for (auto& collective : collectives) {
    collective.ordinal = counts[{collective.device, collective.name}]++;
    if (const auto* device = analysis::find_device(activity, collective.device)) {
      collective.exposed = analysis::clip(device->exposed_comm, collective.start_ns, collective.end_ns);
    }
  }
  return collectives;
}

// Exposed copy time per kind on one device: each kind gets what computation,
// communication and the kinds before it (by code) leave uncovered, so the
// kinds partition the device's exposed copy time.
std::array<IntervalSet, kCopyKinds> exposed_copies_by_kind(const trace::TraceModel& model,
                                                           const analysis::DeviceActivity& device) {
  std::array<IntervalSet, kCopyKinds> per_kind;
  const auto& table = model.memcpys;
  std::array<std::vector<Interval>, kCopyKinds> stream_rows;
  for (const auto& slice : model.memcpy_streams) {
    if (slice.device != device.device) continue;
    for (auto& rows : stream_rows) rows.clear();
    for (std::size_t row = slice.begin; row < slice.end; ++row) {
      const auto kind = std::min<std::size_t>(static_cast<std::size_t>(table.copy_kind[row]), kCopyKinds - 1);
      stream_rows[kind].push_back({table.start_ns[row], table.end_ns[row]});
    }
    for (std::size_t kind = 0; kind < kCopyKinds; ++kind) {
      if (!stream_rows[kind].empty()) {
        per_kind[kind] = analysis::unite(per_kind[kind], analysis::merge_sorted(stream_rows[kind]));
      }
    }
  }
  IntervalSet covered = device.compute_or_comm;
  for (auto& set : per_kind) {
    auto exposed = analysis::subtract(set, covered);
    covered = analysis::unite(covered, set);
    set = std::move(exposed);
  }
  return per_kind;
}

// `step_gaps`: analysis::gap_of_each_step of the rank's steps and gaps.
std::vector<WindowSample> device_windows(const analysis::RankAnalysis& result,
                                         const std::vector<std::optional<std::size_t>>& step_gaps,
                                         const analysis::DeviceActivity& device,
                                         const std::array<IntervalSet, kCopyKinds>& exposed_copies) {
  std::vector<WindowSample> windows;
  for (std::size_t index = 0; index < result.steps.size(); ++index) {
    const auto& entry = result.steps[index];
    if (entry.step.device != device.device) continue;
    windows.push_back({device.device, entry.step.step, entry.step.warmup, true, entry.step.start_ns,
                       entry.step.end_ns, entry.breakdown, {}});
    if (const auto gap = step_gaps[index]) windows.back().gap_cause = result.gaps[*gap].cause;
  }
  if (windows.empty()) {
    const auto breakdown = analysis::breakdown_in(device, device.first_start(), device.last_end());
    windows.push_back({device.device, 0, false, false, device.first_start(), device.last_end(), breakdown, {}});
  }
  for (auto& window : windows) {
    for (std::size_t kind = 0; kind < kCopyKinds; ++kind) {
      window.exposed_copy_ns[kind] = analysis::length_within(exposed_copies[kind], window.start_ns, window.end_ns);
    }
  }
  return windows;
}

}  // namespace

RankSummary summarize_rank(const trace::TraceModel& model, const analysis::AnalysisOptions& options,
                           std::int32_t rank) {
  return summarize_rank_parts(model, options, rank).summary;
}

RankSummaryParts summarize_rank_parts(const trace::TraceModel& model, const analysis::AnalysisOptions& options,
                                      std::int32_t rank) {
  RankSummaryParts result;
  RankSummary& summary = result.summary;
  summary.trace_path = model.path;
  summary.input = model.path;
  auto parts = analysis::analyze_rank_parts(model, options, rank);
  summary.analysis = std::move(parts.analysis);
  const auto& activity = parts.activity;
  const trace::StageTimer timer("rank summary: collectives, windows, step kernels");
  summary.collectives = find_collectives(model, parts.categories, activity);
  const auto step_gaps = analysis::gap_of_each_step(summary.analysis.steps, summary.analysis.gaps);
  for (const auto& device : activity) {
    if (device.empty()) continue;
    const auto exposed_copies = exposed_copies_by_kind(model, device);
    auto windows = device_windows(summary.analysis, step_gaps, device, exposed_copies);
    summary.windows.insert(summary.windows.end(), windows.begin(), windows.end());
  }
  const auto found = model.meta.find("clock_calibration");
  summary.calibration = parse_clock_calibration(found == model.meta.end() ? std::nullopt
                                                                          : std::optional<std::string>(found->second));
  summary.global_batch = analysis::positive_run_fact(model, "global_batch");
  summary.batch_size = analysis::positive_run_fact(model, "batch_size");
  // The job reads the rank's launches only at its steps' starts, the earliest of each step's windows
  // (stragglers.cpp): those are kept, and the model is no longer read.
  std::vector<std::int64_t> window_starts;
  window_starts.reserve(summary.windows.size());
  for (const auto& window : summary.windows) window_starts.push_back(window.start_ns);
  summary.host_activity = std::move(*parts.host).take_any_device(window_starts);
  parts.host.reset();
  auto kernels = step_kernels(model, parts.categories, summary.windows);
  summary.step_basis_windows = kernels.windows;
  summary.step_kernels = std::move(kernels.kernels);
  for (const auto& device : model.devices) {
    if (device.name && !device.name->empty()) summary.gpu_models.push_back(*device.name);
  }
  summary.world_size = model.world_size();
  result.categories = std::move(parts.categories);
  result.correlations = std::move(parts.correlations);
  return result;
}

}  // namespace gpuprof::job
