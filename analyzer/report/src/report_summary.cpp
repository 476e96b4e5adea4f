#include "gpuprof/report/report_summary.hpp"
#include "gpuprof/units/units.hpp"

#include <algorithm>

namespace gpuprof::report {
namespace {

double share(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::array<std::int64_t, kPeriodParts> parts_of(const analysis::Breakdown& b) {
  return {b.computation_ns, b.exposed_comm_ns, b.exposed_memcpy_ns, b.idle_in_steps_ns, b.batch_gap_ns};
}

// Over the windows the step period is the mean of (whole periods; span windows have no warm-up), so that
// share x period is the mean over those windows, as the steps table and compare show it.
void add_device(PeriodSummary& period, std::int32_t rank, const analysis::DeviceBreakdown& device, bool first) {
  const auto& b = device.step_basis();
  period.windows += device.step_basis_windows();
  period.window_ns += b.window_ns;
  period.all_warmup = period.all_warmup || device.steady_is_all_steps;
  const auto values = parts_of(b);
  for (std::size_t i = 0; i < kPeriodParts; ++i) {
    auto& part = period.parts[i];
    part.total_ns += values[i];
    const auto device_share = share(values[i], b.window_ns);
    if (first || device_share < part.min_share) part.min_share = device_share, part.min_device = {rank, device.device};
    if (first || device_share > part.max_share) part.max_share = device_share, part.max_device = {rank, device.device};
  }
}

void add_step_spread(PeriodSummary& period, std::int32_t rank, const analysis::DeviceBreakdown& device) {
  if (device.source != analysis::WindowSource::steps) return;
  const auto step = device.average_step_ns();
  if (!period.from_steps || step < period.min_step_ns) period.min_step_ns = step, period.min_step_device = {rank, device.device};
  if (!period.from_steps || step > period.max_step_ns) period.max_step_ns = step, period.max_step_device = {rank, device.device};
  period.from_steps = true;
}

PeriodSummary summarize_period(const ReportInput& input) {
  PeriodSummary period;
  for (std::size_t i = 0; i < kPeriodParts; ++i) period.parts[i].kind = static_cast<PeriodPartKind>(i);
  std::vector<const analysis::DeviceBreakdown*> stepped;
  bool first = true;
  for (const auto& rank : input.ranks) {
    ++period.ranks;
    for (const auto& device : rank.devices) {
      ++period.devices;
      add_device(period, rank.rank, device, first);
      add_step_spread(period, rank.rank, device);
      if (device.source == analysis::WindowSource::steps) stepped.push_back(&device);
      first = false;
    }
  }
  period.step_ns = analysis::mean_step_period_ns(stepped);
  for (auto& part : period.parts) {
    part.share = share(part.total_ns, period.window_ns);
    // The mean over the windows the period is the mean of, as the steps table and compare take it.
    part.per_step_ns = period.from_steps && period.windows > 0
                           ? static_cast<double>(part.total_ns) / static_cast<double>(period.windows)
                           : 0.0;
  }
  return period;
}

GapsSummary summarize_gaps(const ReportInput& input) {
  GapsSummary summary;
  std::array<analysis::GapCauseTotal, analysis::kGapCauses> causes{};
  for (std::size_t i = 0; i < causes.size(); ++i) causes[i].cause = static_cast<analysis::IdleCause>(i);
  for (const auto& rank : input.ranks) {
    for (const auto& stats : analysis::summarize_gaps(rank.gaps)) {
      summary.count += stats.count;
      summary.idle_ns += stats.total_ns;
      for (std::size_t i = 0; i < causes.size(); ++i) {
        causes[i].count += stats.by_cause[i].count;
        causes[i].idle_ns += stats.by_cause[i].idle_ns;
        causes[i].covered_ns += stats.by_cause[i].covered_ns;
      }
    }
    for (const auto& gap : rank.gaps) summary.largest.push_back({rank.rank, gap});
  }
  summary.causes = analysis::causes_by_idle(causes);
  const auto longer = [](const GapHighlight& a, const GapHighlight& b) { return a.gap.idle_ns > b.gap.idle_ns; };
  std::stable_sort(summary.largest.begin(), summary.largest.end(), longer);
  if (summary.largest.size() > kLargestGaps) summary.largest.resize(kLargestGaps);
  return summary;
}

void add_totals(analysis::TransferTotals& sum, const analysis::TransferTotals& more) {
  // Each total may be near INT64_MAX (copies spanning a hostile file's whole clock): saturate, never wrap.
  sum.count += more.count;
  units::add_saturating(sum.bytes, more.bytes);
  units::add_saturating(sum.total_ns, more.total_ns);
  units::add_saturating(sum.exposed_ns, more.exposed_ns);
}

KindExposure& entry_for(std::vector<KindExposure>& kinds, trace::CopyKind kind) {
  for (auto& entry : kinds) {
    if (entry.kind == kind) return entry;
  }
  kinds.push_back({kind, {}, 0, {kind, analysis::kHost, analysis::kHost, {}}});
  return kinds.back();
}

TransfersSummary summarize_transfers(const ReportInput& input) {
  TransfersSummary summary;
  for (const auto& rank : input.ranks) {
    for (const auto& kind : rank.transfers.kinds) {
      add_totals(entry_for(summary.kinds, kind.kind).totals, kind.totals);
      units::add_saturating(summary.exposed_ns, kind.totals.exposed_ns);
    }
    for (const auto& pair : rank.transfers.pairs) {
      auto& entry = entry_for(summary.kinds, pair.kind);
      const auto& worst = entry.worst_pair.totals;
      if (worst.count == 0 || pair.totals.exposed_ns > worst.exposed_ns ||
          (pair.totals.exposed_ns == worst.exposed_ns && pair.totals.total_ns > worst.total_ns)) {
        entry.worst_pair = pair;
        entry.worst_rank = rank.rank;
      }
    }
  }
  std::stable_sort(summary.kinds.begin(), summary.kinds.end(), [](const KindExposure& a, const KindExposure& b) {
    return a.totals.exposed_ns > b.totals.exposed_ns;
  });
  return summary;
}

RankShare exposed_comm_share(const analysis::RankAnalysis& rank) {
  analysis::Breakdown sum;
  for (const auto& device : rank.devices) sum += device.steady;
  return {rank.rank, share(sum.exposed_comm_ns, sum.window_ns)};
}

JobSummaryLines summarize_job(const ReportInput& input) {
  JobSummaryLines lines;
  const auto& report = input.job->stragglers;
  lines.job = report.job;
  if (!report.ranks.empty()) lines.longest_wait_rank = report.ranks.front().rank;
  for (const auto& timing : report.ranks) {
    if (timing.mean_collective_wait_ns > lines.longest_wait_ns) {
      lines.longest_wait_rank = timing.rank, lines.longest_wait_ns = timing.mean_collective_wait_ns;
    }
    if (!timing.straggler) continue;
    const auto late_share = report.job.mean_step_ns > 0 ? timing.mean_lateness_ns / report.job.mean_step_ns : 0.0;
    auto& line = lines.stragglers.emplace_back(StragglerLine{timing.rank, timing.mean_lateness_ns, late_share});
    for (std::size_t i = 0; i < idle::kCoveringCauses && timing.steps > 0; ++i) {
      line.lateness_causes_ns[i] = static_cast<double>(timing.lateness_causes[i]) / static_cast<double>(timing.steps);
    }
    line.before_trace_ns = timing.steps > 0 ? static_cast<double>(timing.lateness_before_trace_ns) /
                                                  static_cast<double>(timing.steps)
                                            : 0.0;
    line.cause = idle::total_of(timing.lateness_causes) > 0 ? idle::judge(timing.lateness_causes).label
                                                           : idle::IdleCause::unrecorded;
    line.peer_wait_caused_ns = timing.mean_caused_wait_ns;
    line.last_arrivals = timing.last_arrivals;
  }
  std::stable_sort(lines.stragglers.begin(), lines.stragglers.end(), [](const StragglerLine& a, const StragglerLine& b) {
    return a.peer_wait_caused_ns > b.peer_wait_caused_ns;
  });
  bool first = true;
  for (const auto& rank : input.ranks) {
    const auto exposed = exposed_comm_share(rank);
    if (first || exposed.share < lines.least_exposed_comm.share) lines.least_exposed_comm = exposed;
    if (first || exposed.share > lines.most_exposed_comm.share) lines.most_exposed_comm = exposed;
    first = false;
  }
  return lines;
}

DataLossSummary summarize_data_loss(const ReportInput& input) {
  DataLossSummary loss;
  for (const auto& rank : input.ranks) {
    if (rank.warnings.empty()) continue;
    loss.warnings += static_cast<std::int64_t>(rank.warnings.size());
    loss.ranks.push_back(rank.rank);
  }
  return loss;
}

}  // namespace

std::string_view to_string(PeriodPartKind kind) {
  switch (kind) {
    case PeriodPartKind::computation: return "computation";
    case PeriodPartKind::exposed_comm: return "exposed communication";
    case PeriodPartKind::exposed_memcpy: return "exposed transfers";
    case PeriodPartKind::idle_in_steps: return "idle in steps";
    case PeriodPartKind::batch_gaps: return "batch gaps";
  }
  return "computation";
}

ReportSummary summarize_report(const ReportInput& input) {
  ReportSummary summary;
  summary.period = summarize_period(input);
  summary.idle = summarize_idle(input);
  summary.gaps = summarize_gaps(input);
  summary.transfers = summarize_transfers(input);
  if (input.job) summary.job = summarize_job(input);
  summary.data_loss = summarize_data_loss(input);
  return summary;
}

}  // namespace gpuprof::report
