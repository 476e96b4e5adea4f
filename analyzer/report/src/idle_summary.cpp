#include "gpuprof/report/idle_summary.hpp"

#include <algorithm>

#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

double IdleSummary::explained_in_steps() const {
  const auto total = in_steps.total_ns();
  return total > 0 ? static_cast<double>(in_steps.explained_ns()) / static_cast<double>(total) : 0.0;
}

IdleSummary summarize_idle(const ReportInput& input) {
  IdleSummary summary;
  for (const auto& rank : input.ranks) {
    for (const auto& device : rank.devices) {
      const auto& steady = device.step_basis();
      summary.devices.push_back({rank.rank, device.device, steady.window_ns, steady.idle_in_steps_causes,
                                 steady.batch_gap_causes});
      summary.window_ns += steady.window_ns;
      summary.in_steps += steady.idle_in_steps_causes;
      summary.gaps += steady.batch_gap_causes;
    }
    for (const auto& blocker : rank.host_blockers) summary.blockers.push_back({rank.rank, blocker});
  }
  std::stable_sort(summary.blockers.begin(), summary.blockers.end(),
                   [](const RankedBlocker& a, const RankedBlocker& b) { return a.blocker.idle_ns > b.blocker.idle_ns; });
  if (summary.blockers.size() > idle::kHostBlockers) summary.blockers.resize(idle::kHostBlockers);
  return summary;
}

std::vector<IdleLabelLine> idle_lines(const idle::IdleTally& in_steps, const idle::IdleTally& gaps) {
  auto both = in_steps;
  both += gaps;
  const auto total = both.total_ns();
  std::vector<IdleLabelLine> lines;
  for (std::size_t i = 0; i < idle::kIdleLabels; ++i) {
    if (both.label_ns[i] == 0) continue;
    const auto label = static_cast<idle::IdleCause>(i);
    lines.push_back({label, in_steps.label_ns[i], gaps.label_ns[i],
                     total > 0 ? static_cast<double>(both.label_ns[i]) / static_cast<double>(total) : 0.0,
                     both.coverage(label)});
  }
  std::stable_sort(lines.begin(), lines.end(), [](const IdleLabelLine& a, const IdleLabelLine& b) {
    return a.in_steps_ns + a.gaps_ns > b.in_steps_ns + b.gaps_ns;
  });
  return lines;
}

}  // namespace gpuprof::report
