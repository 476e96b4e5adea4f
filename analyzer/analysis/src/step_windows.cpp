#include "gpuprof/analysis/step_windows.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace gpuprof::analysis {
namespace {

// One step annotated on several host threads projects once per thread; its
// GPU work is one extent, not several overlapping steps.
void unite_same_number(std::vector<GpuStep>& steps) {
  std::map<std::pair<std::int32_t, std::int64_t>, std::size_t> first_of;
  std::vector<GpuStep> united;
  united.reserve(steps.size());
  for (const auto& step : steps) {
    if (step.step == kNoStepNumber) {
      united.push_back(step);
      continue;
    }
    const auto [where, inserted] = first_of.try_emplace({step.device, step.step}, united.size());
    if (inserted) {
      united.push_back(step);
      continue;
    }
    auto& kept = united[where->second];
    kept.start_ns = std::min(kept.start_ns, step.start_ns);
    kept.end_ns = std::max(kept.end_ns, step.end_ns);
    kept.from_gpu_annotation = kept.from_gpu_annotation && step.from_gpu_annotation;
  }
  steps = std::move(united);
}

}  // namespace

void tile_step_windows(std::vector<GpuStep>& steps) {
  unite_same_number(steps);
  std::sort(steps.begin(), steps.end(), [](const GpuStep& a, const GpuStep& b) {
    return std::tie(a.device, a.start_ns, a.end_ns) < std::tie(b.device, b.start_ns, b.end_ns);
  });
  // The last window of a device ends with the last GPU work of any of its
  // steps, so work of an earlier step that outlives later ones stays inside a window.
  std::map<std::int32_t, std::int64_t> device_end;
  for (const auto& step : steps) {
    const auto [where, inserted] = device_end.try_emplace(step.device, step.end_ns);
    if (!inserted) where->second = std::max(where->second, step.end_ns);
  }
  for (std::size_t index = 0; index < steps.size(); ++index) {
    auto& step = steps[index];
    const bool last = index + 1 == steps.size() || steps[index + 1].device != step.device;
    const auto own_end = step.end_ns;
    step.end_ns = last ? device_end[step.device] : steps[index + 1].start_ns;
    step.last_work_ns = std::clamp(own_end, step.start_ns, step.end_ns);
  }
}

}  // namespace gpuprof::analysis
