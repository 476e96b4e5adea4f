#include "gpuprof/gui/run_alignment.hpp"

#include <algorithm>
#include <limits>

namespace gpuprof::gui {

std::int64_t alignment_anchor(const Session& session) {
  std::int64_t steady = std::numeric_limits<std::int64_t>::max(), any = steady;
  for (const auto& rank : session.ranks) {
    for (const auto& entry : rank->analysis.steps) {
      any = std::min(any, entry.step.start_ns);
      if (!entry.step.warmup) steady = std::min(steady, entry.step.start_ns);
    }
  }
  if (steady != std::numeric_limits<std::int64_t>::max()) return steady;
  if (any != std::numeric_limits<std::int64_t>::max()) return any;
  return session.start_ns;
}

double mean_steady_step_ns(const Session& session) {
  std::vector<const analysis::DeviceBreakdown*> devices;
  for (const auto& rank : session.ranks) {
    for (const auto& device : rank->analysis.devices) devices.push_back(&device);
  }
  return analysis::mean_step_period_ns(devices);
}

}  // namespace gpuprof::gui
