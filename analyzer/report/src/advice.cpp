#include "gpuprof/report/advice.hpp"

#include <algorithm>

#include "gpuprof/report/idle_summary.hpp"

namespace gpuprof::report {
namespace {

using idle::IdleCause;

std::string remedy(IdleCause cause) {
  switch (cause) {
    case IdleCause::data_loading:
      return "more data-loader workers, pinned memory and prefetching, so that the next batch is ready when a step "
             "ends";
    case IdleCause::blocking_copy:
      return "pinned (page-locked) host memory and non-blocking copies, so that copies overlap computation instead "
             "of holding the host";
    case IdleCause::launch_latency:
      return "fewer, larger launches: CUDA graphs or kernel fusion (torch.compile), so that the GPU does not wait "
             "for each launch";
    case IdleCause::host_bound:
      return "less host work between launches on the launching thread (profile it; move work out of the step loop)";
    case IdleCause::sync_wait:
      return "no synchronisation inside the step (.item(), .cpu(), printing a tensor, device synchronise): read "
             "results once at the step's end";
    case IdleCause::peer_wait:
      return "even out the work of the ranks (batch sizes, data shards), since no single rank is late";
    case IdleCause::unrecorded:
    case IdleCause::mixed:
      return "record what the host does (NVTX ranges around loading, the step and its phases), so that the idle "
             "time gets a cause";
  }
  return {};
}

// The straggler the others wait for longest, when any is named.
const StragglerLine* waited_for(const ReportSummary& summary) {
  if (!summary.job || summary.job->stragglers.empty()) return nullptr;
  const auto& lines = summary.job->stragglers;
  return &*std::max_element(lines.begin(), lines.end(), [](const StragglerLine& a, const StragglerLine& b) {
    return a.peer_wait_caused_ns < b.peer_wait_caused_ns;
  });
}

Advice advice_for(const IdleLabelLine& line, const ReportSummary& summary) {
  const auto& period = summary.period;
  Advice advice{line.label, line.in_steps_ns + line.gaps_ns, 0.0, line.share, std::nullopt, IdleCause::unrecorded, {}};
  if (period.from_steps && period.windows > 0) {
    advice.per_step_ns = static_cast<double>(advice.idle_ns) / static_cast<double>(period.windows);
  }
  advice.text = remedy(line.label);
  if (line.label != IdleCause::peer_wait) return advice;
  if (const auto* straggler = waited_for(summary)) {
    advice.rank = straggler->rank;
    advice.rank_cause = straggler->cause;
    advice.text = "the others wait for rank " + std::to_string(straggler->rank) + ", whose host was in " +
                  std::string(idle::to_string(straggler->cause)) + " while it was late: " + remedy(straggler->cause);
  }
  return advice;
}

}  // namespace

double idle_share(const PeriodSummary& period) {
  return period.parts[static_cast<std::size_t>(PeriodPartKind::idle_in_steps)].share +
         period.parts[static_cast<std::size_t>(PeriodPartKind::batch_gaps)].share;
}

std::vector<Advice> advise(const ReportSummary& summary) {
  std::vector<Advice> advice;
  if (idle_share(summary.period) < kAdviceIdleShare) return advice;
  for (const auto& line : idle_lines(summary.idle.in_steps, summary.idle.gaps)) {
    if (line.share < kAdviceShare || advice.size() == kMostAdvice) break;
    advice.push_back(advice_for(line, summary));
  }
  return advice;
}

}  // namespace gpuprof::report
