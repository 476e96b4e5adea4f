#include "summary_layout.hpp"

#include <fmt/format.h>

#include "gpuprof/report/advice.hpp"
#include "gpuprof/report/cells.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::report {
namespace {

using units::format_duration;

std::string percent(double share) { return fmt::format("{:.1f}%", 100.0 * share); }

// "GPU 1" for one rank, "rank 0 GPU 1" for a job.
std::string where(const PeriodSummary& period, DeviceRef ref) {
  return period.ranks > 1 ? fmt::format("rank {} GPU {}", ref.rank, ref.device) : fmt::format("GPU {}", ref.device);
}

std::string device_side(std::int32_t device) {
  return device == analysis::kHost ? std::string("host") : fmt::format("GPU {}", device);
}

SummaryLine period_line(const PeriodSummary& period) {
  const auto scope = period.ranks > 1 ? fmt::format("{} devices of {} ranks", period.devices, period.ranks)
                                      : fmt::format("{} device{}", period.devices, period.devices == 1 ? "" : "s");
  if (!period.from_steps) {
    return {"Step period", fmt::format("none: no step annotations, so each device's activity span is its window "
                                       "({} in all over {})", format_duration(period.window_ns), scope)};
  }
  auto text = fmt::format("{} (mean of {} over {} steady step periods, {} in all)", duration(period.step_ns), scope,
                          period.windows, format_duration(period.window_ns));
  if (period.devices > 1) {
    text += fmt::format("; per device {} ({}) to {} ({})", duration(period.min_step_ns),
                        where(period, period.min_step_device), duration(period.max_step_ns),
                        where(period, period.max_step_device));
  }
  if (period.all_warmup) text += "; some device has only warm-up steps, counted as steady";
  return {"Step period", text};
}

Table split_table(const PeriodSummary& period) {
  Table table{Section::devices, "summary", "Where the step period goes (shares of the steady step periods)",
              {"Part", "Share%", period.from_steps ? "Per step" : "Time", "Lowest device", "Highest device"}, {}};
  if (!period.from_steps) table.title = "Where the time goes (shares of the activity spans)";
  const bool spread = period.devices > 1;  // one device has no spread to show
  if (!spread) table.columns.resize(3);
  for (const auto& part : period.parts) {
    auto& row = table.rows.emplace_back(std::vector<Cell>{
        text_cell(part_name(period, part.kind)), percent_cell(part.share),
        period.from_steps ? duration_cell(part.per_step_ns) : duration_cell(part.total_ns)});
    if (!spread) continue;
    row.push_back(text_cell(percent(part.min_share) + " " + where(period, part.min_device)));
    row.push_back(text_cell(percent(part.max_share) + " " + where(period, part.max_device)));
  }
  return table;
}

Table idle_table(const IdleSummary& idle, const PeriodSummary& period) {
  Table table{Section::devices, "summary_idle",
              fmt::format("Why the GPU is idle ({}; an interval takes the cause covering half of it or more, else "
                          "mixed)",
                          period.from_steps ? "steady step periods" : "activity spans, no steps"),
              {"Cause", period.from_steps ? "Idle in steps" : "Idle", "Batch gaps", "Share%", "Coverage%"}, {}};
  for (const auto& line : idle_lines(idle.in_steps, idle.gaps)) {
    table.rows.push_back({text_cell(std::string(idle::to_string(line.label))), duration_cell(line.in_steps_ns),
                          duration_cell(line.gaps_ns), percent_cell(line.share), percent_cell(line.coverage)});
  }
  return table;
}

std::string top_causes(const idle::IdleTally& in_steps, const idle::IdleTally& gaps, std::size_t count) {
  std::string out;
  for (const auto& line : idle_lines(in_steps, gaps)) {
    if (count-- == 0) break;
    out += fmt::format("{}{} {} (coverage {})", out.empty() ? "" : ", ", idle::to_string(line.label),
                       percent(line.share), percent(line.coverage));
  }
  return out;
}

std::vector<SummaryLine> idle_lines_of(const IdleSummary& idle, const PeriodSummary& period) {
  std::vector<SummaryLine> lines;
  if (idle.in_steps.total_ns() + idle.gaps.total_ns() == 0) return lines;
  if (idle.in_steps.total_ns() > 0) {
    lines.push_back({period.from_steps ? "Idle in steps explained" : "Idle explained",
                     fmt::format("{} of the idle time {} has a cause other than mixed or unrecorded",
                                 percent(idle.explained_in_steps()),
                                 period.from_steps ? "inside steps" : "in the activity spans")});
  }
  if (idle.devices.size() > 1) {
    std::string text;
    for (const auto& device : idle.devices) {
      const auto total = device.in_steps.total_ns() + device.gaps.total_ns();
      if (total == 0) continue;
      text += fmt::format("{}{} idle {} of its windows: {}", text.empty() ? "" : "; ",
                          where(period, {device.rank, device.device}),
                          percent(static_cast<double>(total) / static_cast<double>(std::max<std::int64_t>(device.window_ns, 1))),
                          top_causes(device.in_steps, device.gaps, idle.devices.size() > 4 ? 1 : 2));
    }
    lines.push_back({"Idle per device", text});
  }
  std::string blockers;
  for (const auto& entry : idle.blockers) {
    const auto& b = entry.blocker;
    const auto shortest = format_duration(b.shortest_ns), longest = format_duration(b.longest_ns);
    const auto lengths = b.count == 1          ? longest
                         : shortest == longest ? fmt::format("{} times, {} each", b.count, longest)
                                               : fmt::format("{} times, {} to {} each", b.count, shortest, longest);
    blockers += fmt::format("{}the host was in {}{} ({}; {}) while {} idled {}", blockers.empty() ? "" : "; ", b.call,
                            b.detail.empty() ? std::string() : ", " + b.detail, lengths,
                            idle::to_string(b.cause), where(period, {entry.rank, b.device}), format_duration(b.idle_ns));
  }
  if (!blockers.empty()) lines.push_back({"Host calls the GPU waited on most", blockers});
  return lines;
}

SummaryLine gaps_line(const GapsSummary& gaps, const PeriodSummary& period) {
  if (gaps.count == 0) return {"Batch gaps", period.from_steps ? "none" : "none (no step windows)"};
  auto text = fmt::format("{} gaps, {} idle in all (warm-up included); by cause:", gaps.count,
                          format_duration(gaps.idle_ns));
  for (const auto& cause : gaps.causes) {
    text += fmt::format(" {} {} ({}, coverage {}),", analysis::to_string(cause.cause), cause.count,
                        format_duration(cause.idle_ns), percent(cause.coverage()));
  }
  text.back() = '.';
  text += " Largest:";
  for (const auto& entry : gaps.largest) {
    text += fmt::format(" {} after step {} on {} ({} {});", format_duration(entry.gap.idle_ns), entry.gap.after_step,
                        where(period, {entry.rank, entry.gap.device}), analysis::to_string(entry.gap.cause),
                        percent(entry.gap.coverage()));
  }
  text.back() = '.';
  return {"Batch gaps", text};
}

SummaryLine transfers_line(const TransfersSummary& transfers, const PeriodSummary& period) {
  if (transfers.kinds.empty()) return {"Exposed transfers", "none (no copies)"};
  auto text = fmt::format("{} in all over the whole trace, copies outside steps included (not hidden behind "
                          "computation on the devices involved);",
                          format_duration(transfers.exposed_ns));
  for (const auto& kind : transfers.kinds) {
    const auto& pair = kind.worst_pair;
    text += fmt::format(" {} {} of {} in {} cop{}", trace::to_string(kind.kind),
                        format_duration(kind.totals.exposed_ns), format_duration(kind.totals.total_ns),
                        kind.totals.count, kind.totals.count == 1 ? "y" : "ies");
    if (pair.totals.exposed_ns > 0) {
      const auto rank = period.ranks > 1 ? fmt::format("rank {} ", kind.worst_rank) : std::string();
      const auto route = pair.src_device == pair.dst_device && pair.src_device != analysis::kHost
                             ? "within " + device_side(pair.src_device)
                             : device_side(pair.src_device) + " -> " + device_side(pair.dst_device);
      text += fmt::format(", worst {}{} ({})", rank, route, format_duration(pair.totals.exposed_ns));
    }
    text += ";";
  }
  text.back() = '.';
  return {"Exposed transfers", text};
}

// "its host was in data_loading for 6.90 ms", or the causes by time when none covers half of the lateness.
std::string lateness_reason(const StragglerLine& straggler) {
  std::vector<std::pair<double, idle::IdleCause>> causes;
  for (std::size_t i = 0; i < straggler.lateness_causes_ns.size(); ++i) {
    if (straggler.lateness_causes_ns[i] > 0) causes.emplace_back(straggler.lateness_causes_ns[i], static_cast<idle::IdleCause>(i));
  }
  if (causes.empty()) return "nothing recorded on its host";
  std::stable_sort(causes.begin(), causes.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  // Time before the host trace begins is unrecorded for want of a trace, not of activity: say so, then what
  // the recorded rest shows.
  if (2 * straggler.before_trace_ns >= straggler.mean_lateness_ns) {
    std::string text = fmt::format("its host recorded nothing for the first {} (its trace starts that late)",
                                   duration(straggler.before_trace_ns));
    std::size_t shown = 0;
    for (const auto& [ns, cause] : causes) {
      const auto rest = cause == idle::IdleCause::unrecorded ? ns - straggler.before_trace_ns : ns;
      if (rest < 500 || shown == 3) continue;  // under half a microsecond is rounding, not a reason
      text += fmt::format("{} {} {}", shown++ == 0 ? ", then" : ",", idle::to_string(cause), duration(rest));
    }
    return text;
  }
  if (straggler.cause != idle::IdleCause::mixed) {
    return fmt::format("its host was in {} for {}", idle::to_string(causes.front().second), duration(causes.front().first));
  }
  std::string text = "its host was in mixed activity:";
  for (std::size_t i = 0; i < causes.size() && i < 3; ++i) {
    text += fmt::format("{} {} {}", i == 0 ? "" : ",", idle::to_string(causes[i].second), duration(causes[i].first));
  }
  return text;
}

std::vector<SummaryLine> job_lines(const JobSummaryLines& lines) {
  const auto& job = lines.job;
  std::vector<SummaryLine> out;
  const bool holds_back = !job.stragglers.empty() && job.stragglers.front() == job.slowest_rank;
  out.push_back({"Slowest rank",
                 fmt::format("rank {}{}, with {} of its own work per step (step time less collective waits) vs {} on "
                             "rank {}, the fastest; imbalance {} (the most own work) over the mean of {} ranks",
                             job.slowest_rank, holds_back ? ", the straggler the others wait for most" : "",
                             duration(job.slowest_work_ns), duration(job.fastest_work_ns), job.fastest_rank,
                             percent(job.imbalance), job.ranks)});
  std::string stragglers;
  for (const auto& straggler : lines.stragglers) {
    stragglers += fmt::format("{}rank {}: the other ranks' GPUs idled {} per step waiting for it (peer_wait; last at "
                              "{} of {} matched collectives); it starts its steps {} late on average ({} of the "
                              "mean step): {}",
                              stragglers.empty() ? "" : "; ", straggler.rank, duration(straggler.peer_wait_caused_ns),
                              straggler.last_arrivals, job.matched_collectives, duration(straggler.mean_lateness_ns),
                              percent(straggler.share_of_step), lateness_reason(straggler));
  }
  if (!stragglers.empty()) {
    stragglers += ". Ranked by the waits each causes; lateness (first GPU work of a step after the earliest rank's) "
                  "includes the profilers' start skew, so alone it names no straggler";
  }
  if (stragglers.empty()) {
    stragglers = fmt::format("none (no rank costs the others more than {} of the step in peer_wait)",
                             percent(job::kStragglerThreshold));
  }
  out.push_back({"Stragglers", stragglers});
  const auto least = percent(lines.least_exposed_comm.share), most = percent(lines.most_exposed_comm.share);
  auto exposed = least == most ? fmt::format("{} of the steady windows on every rank", most)
                               : fmt::format("{} (rank {}) to {} (rank {}) of the steady windows", least,
                                             lines.least_exposed_comm.rank, most, lines.most_exposed_comm.rank);
  exposed += lines.longest_wait_ns > 0
                 ? fmt::format("; the longest wait inside collectives is rank {}'s, {} per step",
                               lines.longest_wait_rank, duration(lines.longest_wait_ns))
                 : std::string("; no rank waits inside collectives for its peers");
  out.push_back({"Exposed communication", exposed});
  return out;
}

SummaryLine data_loss_line(const DataLossSummary& loss) {
  if (loss.warnings == 0) return {"Data loss", "none recorded"};
  std::string ranks;
  for (const auto rank : loss.ranks) ranks += (ranks.empty() ? "" : ", ") + std::to_string(rank);
  return {"Data loss", fmt::format("{} warning{} on rank{} {} (listed above): totals may undercount", loss.warnings,
                                   loss.warnings == 1 ? "" : "s", loss.ranks.size() == 1 ? "" : "s", ranks)};
}

// "data_loading, 1.20 ms per step (45.0% of the idle time): more data-loader workers, ..."
SummaryLine advice_line(const Advice& advice) {
  const auto amount = advice.per_step_ns > 0 ? duration(advice.per_step_ns) + " per step"
                                             : format_duration(advice.idle_ns) + " in all";
  return {"What to try",
          fmt::format("{}, {} ({} of the idle time): {}", idle::to_string(advice.cause), amount,
                      percent(advice.share), advice.text)};
}

}  // namespace

// Without steps the whole span is the window: its idle time is not "in steps".
std::string part_name(const PeriodSummary& period, PeriodPartKind kind) {
  if (!period.from_steps && kind == PeriodPartKind::idle_in_steps) return "idle";
  return std::string(to_string(kind));
}

std::string duration(double ns) { return format_duration(static_cast<std::int64_t>(ns + (ns < 0 ? -0.5 : 0.5))); }

SummaryLayout layout_summary(const ReportSummary& summary) {
  SummaryLayout layout;
  layout.title = "Summary";
  if (summary.period.from_steps) {
    layout.title += summary.period.all_warmup ? " (steady state; a device with only warm-up steps counts them all)"
                                              : " (steady state: warm-up steps left out)";
  } else {
    layout.title += " (no steps: each device's activity span is its window)";
  }
  layout.answer = answer_line(summary);
  for (const auto& advice : advise(summary)) layout.advice.push_back(advice_line(advice));
  if (layout.advice.empty() && summary.period.window_ns > 0) {
    layout.advice.push_back({"What to try", fmt::format("the GPUs idle only {} of the windows, so the time is in the "
                                                        "work itself: the largest kernels (Kernel summary) first",
                                                        percent(idle_share(summary.period)))});
  }
  layout.period = period_line(summary.period);
  layout.split = split_table(summary.period);
  layout.idle = idle_table(summary.idle, summary.period);
  // Who holds the job back comes before the per-device detail: it is part of the answer.
  if (summary.job) {
    for (auto& line : job_lines(*summary.job)) layout.findings.push_back(std::move(line));
  }
  for (auto& line : idle_lines_of(summary.idle, summary.period)) layout.findings.push_back(std::move(line));
  layout.findings.push_back(gaps_line(summary.gaps, summary.period));
  layout.findings.push_back(transfers_line(summary.transfers, summary.period));
  layout.findings.push_back(data_loss_line(summary.data_loss));
  return layout;
}

}  // namespace gpuprof::report
