#include "gpuprof/analysis/steps.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "gpuprof/analysis/interval_set.hpp"
#include "gpuprof/analysis/step_pattern.hpp"
#include "gpuprof/analysis/step_windows.hpp"

namespace gpuprof::analysis {
namespace {


// Step number per range name id, or nullopt for names that are not steps.
// Names are matched once each, not once per row.
std::vector<std::optional<std::int64_t>> match_step_names(const trace::TraceModel& model, const std::string& pattern) {
  const StepPattern step_pattern(pattern);
  std::vector<std::optional<std::int64_t>> numbers(model.strings.size());
  std::vector<bool> seen(model.strings.size(), false);
  for (const auto id : model.ranges.name) {
    if (id >= seen.size() || seen[id]) continue;
    seen[id] = true;
    numbers[id] = step_pattern.match(model.strings[id]);
  }
  return numbers;
}

struct HostStep {
  std::int64_t thread = 0, start_ns = 0, end_ns = 0, number = 0;
  // Projected GPU extent per device.
  std::map<std::int32_t, std::pair<std::int64_t, std::int64_t>> extent;
};

// Host steps grouped by thread, each group sorted by start (ranges are sorted by start).
struct HostSteps {
  std::vector<HostStep> steps;
  std::map<std::int64_t, std::vector<std::size_t>> by_thread;

  HostStep* containing(std::int64_t thread, std::int64_t time) {
    const auto found = by_thread.find(thread);
    if (found == by_thread.end()) return nullptr;
    const auto& list = found->second;
    auto it = std::upper_bound(list.begin(), list.end(), time,
                               [this](std::int64_t value, std::size_t index) { return value < steps[index].start_ns; });
    if (it == list.begin()) return nullptr;
    HostStep& step = steps[*std::prev(it)];
    return time < step.end_ns ? &step : nullptr;
  }
};

// Each launched row widens its host step's extent on its device. The device is read run by run (RunColumn), and
// the extent's entry is looked up again only when the step or the device changes: consecutive rows mostly
// belong to the same step.
void project(const trace::GpuColumns& table, const trace::ApiCallTable& api_calls,
             const CorrelationIndex& correlations, HostSteps& host_steps) {
  HostStep* last = nullptr;
  std::pair<std::int64_t, std::int64_t>* extent = nullptr;  // last's on the run's device, once looked up
  std::size_t row = 0;
  for (std::size_t run = 0; run < table.device.runs(); ++run) {
    const auto device = table.device.run_value(run);
    extent = nullptr;
    for (const auto end = table.device.run_end(run); row < end; ++row) {
      const auto api_row = correlations.api_row(table.correlation_id[row]);
      if (api_row == CorrelationIndex::kNone) continue;
      const auto thread = api_calls.thread_id[api_row];
      const auto time = api_calls.start_ns[api_row];
      const bool same = last != nullptr && last->thread == thread && last->start_ns <= time && time < last->end_ns;
      HostStep* step = same ? last : host_steps.containing(thread, time);
      if (step != last) extent = nullptr;
      last = step;
      if (step == nullptr) continue;
      if (extent == nullptr) {
        extent = &step->extent.try_emplace(device, table.start_ns[row], table.end_ns[row]).first->second;
      }
      extent->first = std::min(extent->first, table.start_ns[row]);
      extent->second = std::max(extent->second, table.end_ns[row]);
    }
  }
}

// Of the GPU work the host steps launched on `device` (each step's projection, first start to last end), the
// share inside its GPU annotations of the same step number; 1 when the host steps launched nothing there.
// The span, not the kernels' own time, is what a step window is made of: a truncated annotation can hold
// most of the kernel time and still cut the step short (ROCm: 1.03 of 8.91 ms, 7 of 14 kernels outside).
double annotation_coverage(std::int32_t device, const std::vector<GpuStep>& annotated, const HostSteps& host_steps) {
  std::int64_t covered = 0, total = 0;
  for (const auto& host : host_steps.steps) {
    const auto found = host.extent.find(device);
    if (found == host.extent.end()) continue;
    std::vector<Interval> windows;
    for (const auto& step : annotated) {
      if (step.device == device && step.step == host.number) windows.push_back({step.start_ns, step.end_ns});
    }
    const IntervalSet extent = {{found->second.first, found->second.second}};
    total += total_length(extent);
    covered += total_length(intersect(extent, normalize(std::move(windows))));
  }
  return total > 0 ? static_cast<double>(covered) / static_cast<double>(total) : 1.0;
}

// `steps` sorted by (device, start).
void number_and_flag(std::vector<GpuStep>& steps, std::int64_t warmup_steps) {
  std::int32_t device = trace::kUnknown32;
  std::int64_t ordinal = 0;
  for (auto& step : steps) {
    if (step.device != device) device = step.device, ordinal = 0;
    if (step.step == kNoStepNumber) step.step = ordinal;
    step.warmup = ordinal < warmup_steps;
    ++ordinal;
  }
}

}  // namespace

StepDetection find_steps(const trace::TraceModel& model, const AnalysisOptions& options,
                         const CorrelationIndex& correlations) {
  const auto numbers = match_step_names(model, options.step_pattern);
  const auto& ranges = model.ranges;
  StepDetection detection;
  detection.step_names.resize(numbers.size());
  for (std::size_t id = 0; id < numbers.size(); ++id) detection.step_names[id] = numbers[id].has_value();
  std::vector<GpuStep> annotated;
  HostSteps host_steps;
  for (std::size_t row = 0; row < ranges.size(); ++row) {
    const auto name = ranges.name[row];
    if (name >= numbers.size() || !numbers[name]) continue;
    detection.pattern_matched = true;
    if (ranges.on_gpu[row] != 0) {
      if (ranges.device[row] == trace::kUnknown32) continue;
      annotated.push_back({ranges.device[row], *numbers[name], ranges.start_ns[row], ranges.end_ns[row],
                           ranges.end_ns[row], false, true, trace::kUnknown});
    } else {
      host_steps.by_thread[ranges.thread_id[row]].push_back(host_steps.steps.size());
      host_steps.steps.push_back({ranges.thread_id[row], ranges.start_ns[row], ranges.end_ns[row], *numbers[name], {}});
    }
  }
  std::set<std::int32_t> annotated_devices;
  for (const auto& step : annotated) annotated_devices.insert(step.device);
  if (!host_steps.steps.empty()) {
    project(model.kernels, model.api_calls, correlations, host_steps);
    project(model.memcpys, model.api_calls, correlations, host_steps);
    project(model.memsets, model.api_calls, correlations, host_steps);
  }
  // A device with GPU annotations uses only those (Kineto writes ProfilerStep# on both sides), unless they
  // hold too little of the work their host steps launched: then its host steps are projected.
  for (const auto device : annotated_devices) {
    const auto coverage = annotation_coverage(device, annotated, host_steps);
    if (coverage < kAnnotationCoverage) detection.rejected.push_back({device, coverage});
  }
  for (const auto& rejected : detection.rejected) annotated_devices.erase(rejected.device);
  std::erase_if(annotated, [&](const GpuStep& step) { return !annotated_devices.contains(step.device); });
  detection.steps = std::move(annotated);
  for (const auto& host : host_steps.steps) {
    for (const auto& [device, extent] : host.extent) {
      if (annotated_devices.contains(device)) continue;
      detection.steps.push_back({device, host.number, extent.first, extent.second, extent.second, false, false,
                                 host.thread});
    }
  }
  tile_step_windows(detection.steps);
  number_and_flag(detection.steps, options.warmup_steps);
  return detection;
}

}  // namespace gpuprof::analysis
