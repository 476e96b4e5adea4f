#include "gpuprof/job/stragglers.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <span>

#include "gpuprof/idle/idle_attribution.hpp"
#include "gpuprof/units/statistics.hpp"

namespace gpuprof::job {
namespace {

// One row per (rank, step): the rank's devices merged.
std::vector<RankStep> rank_steps(const RankSummary& rank, std::int64_t offset, const std::vector<std::int64_t>& waits) {
  std::map<std::int64_t, RankStep> by_step;
  for (const auto& window : rank.windows) {
    auto [where, inserted] = by_step.try_emplace(window.step);
    auto& entry = where->second;
    if (inserted) {
      entry = {rank.analysis.rank, window.step, window.warmup, window.start_ns, window.end_ns - window.start_ns, 0, 0};
      continue;
    }
    const auto end = std::max(entry.start_ns + entry.duration_ns, window.end_ns);
    entry.start_ns = std::min(entry.start_ns, window.start_ns);
    entry.duration_ns = end - entry.start_ns;
    entry.warmup = entry.warmup && window.warmup;
  }
  std::vector<RankStep> steps;
  for (auto& [number, entry] : by_step) {
    const auto end = entry.start_ns + entry.duration_ns;
    for (std::size_t i = 0; i < rank.collectives.size(); ++i) {
      const auto start = rank.collectives[i].start_ns;
      if (start >= entry.start_ns && start < end) entry.collective_wait_ns += waits[i];
    }
    entry.start_ns += offset;
    steps.push_back(entry);
  }
  return steps;
}

void add_lateness(std::vector<RankStep>& steps) {
  std::map<std::int64_t, std::int64_t> earliest;
  for (const auto& step : steps) {
    auto [where, inserted] = earliest.try_emplace(step.step, step.start_ns);
    if (!inserted) where->second = std::min(where->second, step.start_ns);
  }
  for (auto& step : steps) step.lateness_ns = step.start_ns - earliest.at(step.step);
  std::sort(steps.begin(), steps.end(), [](const RankStep& a, const RankStep& b) {
    return std::tie(a.step, a.rank) < std::tie(b.step, b.rank);
  });
}

std::optional<std::int64_t> first_host_activity(const idle::DeviceHostCauses& host) {
  std::optional<std::int64_t> first;
  for (const auto& set : host.sets) {
    if (!set.empty()) first = std::min(first.value_or(set.front().start), set.front().start);
  }
  return first;
}

// The lateness interval of a step, [earliest start over ranks, own start), on the rank's own clock.
void add_lateness_causes(const std::vector<RankSummary>& ranks, const ClockAlignment& clocks,
                         std::vector<RankStep>& steps) {
  std::map<std::int32_t, const RankSummary*> by_rank;
  for (const auto& rank : ranks) by_rank[rank.analysis.rank] = &rank;
  for (auto& step : steps) {
    if (step.lateness_ns <= 0) continue;
    const auto offset = clocks.offset_of(step.rank);
    const auto own_start = step.start_ns - offset;
    const auto& host = by_rank.at(step.rank)->host_activity;
    const auto late_from = own_start - step.lateness_ns;
    step.lateness_causes = idle::causes_before(host, late_from, own_start);
    const auto first = first_host_activity(host);
    step.lateness_before_trace_ns = first ? std::clamp(*first - late_from, std::int64_t{0}, step.lateness_ns) : 0;
  }
}

// Means over steady steps when the rank has any, else over all of them.
RankTiming timing_of(std::int32_t rank, const std::vector<RankStep>& steps) {
  RankTiming timing;
  timing.rank = rank;
  const bool any_steady = std::any_of(steps.begin(), steps.end(), [rank](const RankStep& step) {
    return step.rank == rank && !step.warmup;
  });
  double duration = 0, lateness = 0, wait = 0;
  for (const auto& step : steps) {
    if (step.rank != rank || (any_steady && step.warmup)) continue;
    ++timing.steps;
    duration += static_cast<double>(step.duration_ns);
    lateness += static_cast<double>(step.lateness_ns);
    wait += static_cast<double>(step.collective_wait_ns);
    idle::add_times(timing.lateness_causes, step.lateness_causes);
    timing.lateness_before_trace_ns += step.lateness_before_trace_ns;
  }
  if (timing.steps > 0) {
    const auto count = static_cast<double>(timing.steps);
    timing.mean_step_ns = duration / count;
    timing.mean_lateness_ns = lateness / count;
    timing.mean_collective_wait_ns = wait / count;
    timing.mean_work_ns = timing.mean_step_ns - timing.mean_collective_wait_ns;
  }
  return timing;
}

// The lower middle (the nearest-rank 50th percentile), so that with two ranks the faster one is the yardstick.
double lower_median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return units::nearest_rank_percentile(std::span<const double>(values), 50);
}

// Per rank number: the other ranks' steady peer_wait it caused, and the matched collectives it started last.
void add_caused_waits(const std::vector<RankSummary>& ranks, const CollectiveGroups& groups,
                      const std::vector<PeerWaitPiece>& peer_waits, std::vector<RankTiming>& timings,
                      std::int64_t& matched) {
  std::map<std::int32_t, RankTiming*> by_rank;
  for (auto& timing : timings) by_rank[timing.rank] = &timing;
  for (const auto& piece : peer_waits) {
    // A rank's devices waiting for each other are not a straggler's doing.
    if (!piece.steady || piece.waited_for == piece.rank) continue;
    if (const auto found = by_rank.find(piece.waited_for); found != by_rank.end()) {
      found->second->caused_wait_ns += piece.peer_wait_ns;
    }
  }
  for (const auto& [key, group] : groups) {
    if (group.ranks < 2) continue;
    ++matched;
    const CollectiveMember* last = nullptr;
    for (const auto& member : group.members) {
      if (last == nullptr || member.aligned_start_ns > last->aligned_start_ns) last = &member;
    }
    if (const auto found = by_rank.find(ranks[last->rank].analysis.rank); found != by_rank.end()) {
      ++found->second->last_arrivals;
    }
  }
  for (auto& timing : timings) {
    if (timing.steps > 0) {
      timing.mean_caused_wait_ns = static_cast<double>(timing.caused_wait_ns) / static_cast<double>(timing.steps);
    }
  }
}

JobSummary summarize_job(std::vector<RankTiming>& ranks, std::int32_t devices) {
  JobSummary job;
  job.ranks = static_cast<std::int32_t>(ranks.size());
  job.devices = devices;
  if (ranks.empty()) return job;
  const auto [fastest, most_work] = std::minmax_element(ranks.begin(), ranks.end(), [](const auto& a, const auto& b) {
    return a.mean_work_ns < b.mean_work_ns;
  });
  double steps = 0, work = 0;
  std::vector<double> step_times;
  for (const auto& rank : ranks) {
    steps += rank.mean_step_ns, work += rank.mean_work_ns;
    step_times.push_back(rank.mean_step_ns);
  }
  const auto count = static_cast<double>(ranks.size());
  job.mean_step_ns = steps / count;
  job.slowest_rank = most_work->rank, job.slowest_work_ns = most_work->mean_work_ns;
  job.fastest_rank = fastest->rank, job.fastest_work_ns = fastest->mean_work_ns;
  job.imbalance = work > 0 ? most_work->mean_work_ns / (work / count) - 1.0 : 0.0;
  if (ranks.size() < 2) return job;
  const auto limit = kStragglerThreshold * lower_median(step_times);
  std::vector<const RankTiming*> named;
  for (auto& rank : ranks) {
    rank.straggler = limit > 0 && rank.mean_caused_wait_ns > limit;
    if (rank.straggler) named.push_back(&rank);
  }
  std::stable_sort(named.begin(), named.end(), [](const RankTiming* a, const RankTiming* b) {
    return a->caused_wait_ns > b->caused_wait_ns;
  });
  for (const auto* rank : named) job.stragglers.push_back(rank->rank);
  // One answer to "who holds the job back": the rank that costs the others the most waits.
  if (!named.empty()) job.slowest_rank = named.front()->rank, job.slowest_work_ns = named.front()->mean_work_ns;
  return job;
}

}  // namespace

StragglerReport find_stragglers(const std::vector<RankSummary>& ranks, const ClockAlignment& clocks,
                                const CollectiveWaits& waits, const CollectiveGroups& groups,
                                const std::vector<PeerWaitPiece>& peer_waits) {
  StragglerReport report;
  std::int32_t devices = 0;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    auto steps = rank_steps(ranks[i], clocks.offset_of(ranks[i].analysis.rank), waits[i]);
    report.steps.insert(report.steps.end(), steps.begin(), steps.end());
    devices += static_cast<std::int32_t>(ranks[i].analysis.devices.size());
  }
  add_lateness(report.steps);
  add_lateness_causes(ranks, clocks, report.steps);
  for (const auto& rank : ranks) report.ranks.push_back(timing_of(rank.analysis.rank, report.steps));
  std::int64_t matched = 0;
  add_caused_waits(ranks, groups, peer_waits, report.ranks, matched);
  report.job = summarize_job(report.ranks, devices);
  report.job.matched_collectives = matched;
  return report;
}

}  // namespace gpuprof::job
