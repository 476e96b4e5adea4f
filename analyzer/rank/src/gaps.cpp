#include "gpuprof/rank/gaps.hpp"

namespace gpuprof::analysis {

double BatchGap::coverage() const {
  return idle_ns > 0 ? static_cast<double>(idle::judge(causes).covered_ns) / static_cast<double>(idle_ns) : 0.0;
}

std::vector<BatchGap> find_batch_gaps(const std::vector<StepBreakdown>& steps) {
  std::vector<BatchGap> gaps;
  for (std::size_t index = 1; index < steps.size(); ++index) {
    const auto& before = steps[index - 1].step;
    const auto& after = steps[index].step;
    const auto& breakdown = steps[index - 1].breakdown;
    if (before.device != after.device || breakdown.batch_gap_ns <= 0) continue;
    const auto& causes = breakdown.batch_gap_causes.cause_ns;
    // A gap is judged as one: its idle pieces (work launched outside the steps may split it) pooled.
    const auto cause = idle::total_of(causes) > 0 ? idle::judge(causes).label : IdleCause::unrecorded;
    gaps.push_back({after.device, before.step, before.last_work_ns, before.end_ns, cause, before.warmup,
                    breakdown.batch_gap_ns, causes});
  }
  return gaps;
}

std::vector<trace::GapRow> gap_rows(const std::vector<BatchGap>& gaps, std::int32_t rank) {
  std::vector<trace::GapRow> rows;
  rows.reserve(gaps.size());
  for (const auto& gap : gaps) {
    rows.push_back({rank, gap.device, gap.after_step, gap.start_ns, gap.end_ns, std::string(to_string(gap.cause))});
  }
  return rows;
}

}  // namespace gpuprof::analysis
