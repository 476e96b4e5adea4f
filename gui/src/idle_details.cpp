#include "gpuprof/gui/idle_details.hpp"

#include "gpuprof/analysis/step_pattern.hpp"
#include "gpuprof/rank/idle_description.hpp"
#include "gpuprof/idle/interval_host_activity.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::gui {
namespace {

const analysis::BatchGap* gap_at(const LoadedRank& rank, std::int32_t device, std::int64_t t_ns) {
  for (const auto& gap : rank.analysis.gaps) {
    if (gap.device == device && gap.start_ns <= t_ns && t_ns < gap.end_ns) return &gap;
  }
  return nullptr;
}

// The threads whose calls launched the rank's GPU work, as the job analysis found them.
const std::vector<std::int64_t>* issuing_threads(const Session& session, const LoadedRank& rank) {
  for (const auto& summary : session.job.ranks) {
    if (summary.analysis.rank == rank.analysis.rank) return &summary.host_activity.threads;
  }
  return nullptr;
}

}  // namespace

std::optional<IdleSelection> idle_selection_at(const Session& session, std::size_t rank, std::int32_t device,
                                               std::int64_t t_ns) {
  if (rank >= session.ranks.size()) return std::nullopt;
  const auto& loaded = *session.ranks[rank];
  if (const auto* gap = gap_at(loaded, device, t_ns)) {
    return IdleSelection{rank, device, gap->start_ns, gap->end_ns, true};
  }
  if (const auto* interval = idle::idle_interval_at(loaded.analysis.idle_intervals, device, t_ns)) {
    return IdleSelection{rank, device, interval->start_ns, interval->end_ns, false};
  }
  return std::nullopt;
}

std::string describe_idle_selection(const Session& session, const IdleSelection& selection) {
  if (selection.rank >= session.ranks.size()) return {};
  const auto& rank = *session.ranks[selection.rank];
  std::string text = "Rank " + std::to_string(rank.analysis.rank) + ", GPU " + std::to_string(selection.device) +
                     ", from " + units::format_duration(selection.start_ns - session.start_ns) + " to " +
                     units::format_duration(selection.end_ns - session.start_ns) + " (from the trace start)\n";
  const auto* gap = selection.gap ? gap_at(rank, selection.device, selection.start_ns) : nullptr;
  const auto* interval = selection.gap ? nullptr
                                       : idle::idle_interval_at(rank.analysis.idle_intervals, selection.device,
                                                                selection.start_ns);
  if (gap) text += "Cause: " + idle::describe_gap(*gap) + "\n";
  if (interval) text += "Cause: " + idle::describe_idle(*interval) + "\n";
  // A gap's host activity is the analysis's own (the report's JSON has it): the app computes nothing of it.
  if (gap) {
    const auto index = static_cast<std::size_t>(gap - rank.analysis.gaps.data());
    if (index < rank.analysis.gap_host_activity.size()) {
      return text + idle::describe_host_activity(rank.analysis.gap_host_activity[index]);
    }
  }
  const auto* threads = issuing_threads(session, rank);
  if (!threads) return text + "Host activity: the job analysis has no record of this rank's host threads";
  const analysis::StepPattern steps(session.step_pattern);
  return text + idle::describe_host_activity(
                    idle::host_activity_during(rank.model, *threads, steps, selection.start_ns, selection.end_ns));
}

}  // namespace gpuprof::gui
