#include "gpuprof/analysis/gaps.hpp"

#include <algorithm>
#include <cctype>

namespace gpuprof::analysis {
namespace {

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

}  // namespace

double BatchGap::coverage() const {
  return idle_ns > 0 ? static_cast<double>(idle::judge(causes).covered_ns) / static_cast<double>(idle_ns) : 0.0;
}

bool is_data_loading_name(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "data" || contains(lower, "dataloader") || contains(lower, "data_loader") ||
         contains(lower, "data loading") || contains(lower, "load_batch");
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
