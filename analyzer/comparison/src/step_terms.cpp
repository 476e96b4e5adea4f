#include "gpuprof/comparison/step_terms.hpp"

#include <numeric>

#include "gpuprof/job/step_basis.hpp"

namespace gpuprof::comparison {
namespace {

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
    const auto basis = job::step_basis(windows);
    for (std::size_t pick = 0; pick < windows.size(); ++pick) {
      if (basis[pick]) add_window(windows[pick], job.window_sync_wait_ns[i][pick], sums);
    }
  }
  return sums;
}

}  // namespace gpuprof::comparison
