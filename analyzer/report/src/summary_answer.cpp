#include <fmt/format.h>

#include <algorithm>

#include "gpuprof/report/advice.hpp"
#include "gpuprof/report/idle_summary.hpp"
#include "gpuprof/units/units.hpp"
#include "summary_layout.hpp"

// The report's answer in one line, before any detail: the step, where it goes, why the GPUs idle and, for a
// job, which rank holds the others back and why. Every figure is one the lines and tables below show too.

namespace gpuprof::report {
namespace {

std::string percent(double share) { return fmt::format("{:.1f}%", 100.0 * share); }

std::string step_part(const PeriodSummary& period) {
  if (!period.from_steps) {
    return fmt::format("no step annotations, so the window is each device's activity span ({} in all)",
                       units::format_duration(period.window_ns));
  }
  return fmt::format("a step takes {} ({}, mean of {} device{})", duration(period.step_ns),
                     period.all_warmup ? "all steps, as some device has only warm-up ones" : "steady steps",
                     period.devices, period.devices == 1 ? "" : "s");
}

// The parts of the period with a share, largest first: "computation 60.1%, batch gaps 20.0%, ...".
std::string parts_part(const PeriodSummary& period) {
  auto parts = period.parts;
  std::stable_sort(parts.begin(), parts.end(), [](const PeriodPart& a, const PeriodPart& b) { return a.share > b.share; });
  std::string text;
  for (const auto& part : parts) {
    if (part.share < 0.0005) continue;  // "0.0%" says nothing
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", part_name(period, part.kind), percent(part.share));
  }
  return text.empty() ? "nothing recorded" : text;
}

std::string idle_part(const ReportSummary& summary) {
  const auto idle = idle_share(summary.period);
  const auto lines = idle_lines(summary.idle.in_steps, summary.idle.gaps);
  if (lines.empty()) return "the GPUs are never idle";
  const auto& top = lines.front();
  return fmt::format("the GPUs idle {} of it, most for {} ({} of the idle time)", percent(idle),
                     idle::to_string(top.label), percent(top.share));
}

// The rank the others wait for longest among the stragglers; without stragglers, the rank with the most
// own work, when its work exceeds the mean noticeably.
std::string holding_part(const JobSummaryLines& job) {
  const auto& lines = job.stragglers;
  const auto most = std::max_element(lines.begin(), lines.end(), [](const StragglerLine& a, const StragglerLine& b) {
    return a.peer_wait_caused_ns < b.peer_wait_caused_ns;
  });
  if (most != lines.end()) {
    // Stragglers are ranked by the waits they cause, so the wait leads; lateness and its cause explain it.
    auto text = fmt::format("rank {} holds the others back: their GPUs idle {} per step waiting for it; it starts "
                            "its steps {} late",
                            most->rank, duration(most->peer_wait_caused_ns), duration(most->mean_lateness_ns));
    // Time before a rank's host trace begins is unrecorded for want of a trace, not of activity.
    if (2 * most->before_trace_ns >= most->mean_lateness_ns) return text + " (mostly before its host trace begins)";
    return text + fmt::format(" (its host was in {} then)", idle::to_string(most->cause));
  }
  if (job.job.imbalance >= job::kStragglerThreshold) {
    return fmt::format("no rank is late, but rank {} has the most work per step ({} over the mean)",
                       job.job.slowest_rank, percent(job.job.imbalance));
  }
  return "no rank holds the others back";
}

}  // namespace

SummaryLine answer_line(const ReportSummary& summary) {
  auto text = step_part(summary.period) + ": " + parts_part(summary.period) + "; " + idle_part(summary);
  if (summary.job) text += "; " + holding_part(*summary.job);
  return {"Answer", text + "."};
}

}  // namespace gpuprof::report
