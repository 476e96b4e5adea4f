#include "gpuprof/comparison/step_terms.hpp"

#include <numeric>

namespace gpuprof::comparison {
namespace {

// Windows [begin, end) of one device, sorted by start. The last step's window
// has no batch gap, so it is left out when others are there to average.
std::vector<std::size_t> pick_windows(const std::vector<job::WindowSample>& windows, std::size_t begin,
                                      std::size_t end) {
  std::vector<std::size_t> followed, steady, all;
  for (std::size_t j = begin; j < end; ++j) {
    const auto& window = windows[j];
    all.push_back(j);
    if (window.warmup) continue;
    steady.push_back(j);
    if (j + 1 < end && window.from_steps) followed.push_back(j);
  }
  if (!followed.empty()) return followed;
  return steady.empty() ? all : steady;
}

// Step windows tile the timeline, so the window is the step period and its batch gap is inside it.
void add_window(const job::WindowSample& window, std::int64_t sync_wait_ns, TermSums& sums) {
  const auto& b = window.breakdown;
  ++sums.samples;
  sums.period_ns += b.window_ns;
  sums.computation_ns += b.computation_ns;
  for (std::size_t kind = 0; kind < job::kCopyKinds; ++kind) sums.exposed_copy_ns[kind] += window.exposed_copy_ns[kind];
  sums.sync_wait_ns += sync_wait_ns;
  sums.exposed_comm_ns += b.exposed_comm_ns - sync_wait_ns;
  sums.batch_gap_ns += b.batch_gap_ns;
  static_assert(static_cast<std::size_t>(idle::IdleCause::mixed) < kUnattributedGapSlot);
  const auto cause = window.gap_cause ? static_cast<std::size_t>(*window.gap_cause) : kUnattributedGapSlot;
  sums.batch_gap_by_cause_ns[cause] += b.batch_gap_ns;
  sums.other_ns += b.idle_in_steps_ns;
}

}  // namespace

std::int64_t TermSums::parts() const {
  return computation_ns + std::accumulate(exposed_copy_ns.begin(), exposed_copy_ns.end(), std::int64_t{0}) +
         exposed_comm_ns + sync_wait_ns + batch_gap_ns + other_ns;
}

TermSums sum_step_terms(const job::JobAnalysis& job) {
  TermSums sums;
  for (std::size_t i = 0; i < job.ranks.size(); ++i) {
    const auto& windows = job.ranks[i].windows;
    for (std::size_t begin = 0; begin < windows.size();) {
      auto end = begin;
      while (end < windows.size() && windows[end].device == windows[begin].device) ++end;
      for (const auto pick : pick_windows(windows, begin, end)) {
        add_window(windows[pick], job.window_sync_wait_ns[i][pick], sums);
      }
      begin = end;
    }
  }
  return sums;
}

}  // namespace gpuprof::comparison
