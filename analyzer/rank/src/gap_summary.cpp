#include "gpuprof/rank/gap_summary.hpp"
#include "gpuprof/units/statistics.hpp"
#include "gpuprof/units/units.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace gpuprof::analysis {
namespace {

std::array<GapCauseTotal, kGapCauses> empty_causes() {
  std::array<GapCauseTotal, kGapCauses> causes{};
  for (std::size_t i = 0; i < kGapCauses; ++i) causes[i].cause = static_cast<IdleCause>(i);
  return causes;
}

GapStats stats_of(std::int32_t device, std::vector<const BatchGap*>& gaps) {
  GapStats stats;
  stats.device = device;
  stats.by_cause = empty_causes();
  std::vector<std::int64_t> idle;
  for (const auto* gap : gaps) {
    idle.push_back(gap->idle_ns);
    units::add_saturating(stats.total_ns, gap->idle_ns);
    auto& cause = stats.by_cause[static_cast<std::size_t>(gap->cause)];
    ++cause.count;
    units::add_saturating(cause.idle_ns, gap->idle_ns);
    units::add_saturating(cause.covered_ns, idle::judge(gap->causes).covered_ns);
  }
  std::sort(idle.begin(), idle.end());
  stats.count = static_cast<std::int64_t>(idle.size());
  stats.mean_ns = static_cast<double>(stats.total_ns) / static_cast<double>(idle.size());
  stats.p50_ns = units::nearest_rank_percentile(std::span<const std::int64_t>(idle), 50);
  stats.p95_ns = units::nearest_rank_percentile(std::span<const std::int64_t>(idle), 95);
  stats.max_ns = idle.back();
  return stats;
}

}  // namespace

std::vector<GapStats> summarize_gaps(const std::vector<BatchGap>& gaps) {
  std::map<std::int32_t, std::vector<const BatchGap*>> per_device;
  for (const auto& gap : gaps) per_device[gap.device].push_back(&gap);
  std::vector<GapStats> result;
  for (auto& [device, device_gaps] : per_device) result.push_back(stats_of(device, device_gaps));
  return result;
}

std::vector<GapCauseTotal> causes_by_idle(const std::array<GapCauseTotal, kGapCauses>& by_cause) {
  std::vector<GapCauseTotal> causes;
  for (const auto& cause : by_cause) {
    if (cause.count > 0) causes.push_back(cause);
  }
  std::stable_sort(causes.begin(), causes.end(),
                   [](const GapCauseTotal& a, const GapCauseTotal& b) { return a.idle_ns > b.idle_ns; });
  return causes;
}

}  // namespace gpuprof::analysis
