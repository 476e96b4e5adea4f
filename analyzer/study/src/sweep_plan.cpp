#include "gpuprof/study/sweep_plan.hpp"

#include <algorithm>

namespace gpuprof::study {
namespace {

bool finished(const std::vector<RunRecord>& done, const std::string& name, std::int64_t repeat, RunKind kind) {
  return std::any_of(done.begin(), done.end(), [&](const RunRecord& run) {
    return run.configuration == name && run.repeat == repeat && run.kind == kind && run.status != RunStatus::running;
  });
}

}  // namespace

std::vector<PlannedRun> plan_sweep(const std::vector<Configuration>& grid, std::int64_t repeat, bool calibrate,
                                   const std::vector<RunRecord>& done) {
  std::vector<PlannedRun> plan;
  for (const auto& configuration : grid) {
    const auto name = configuration.name();
    for (std::int64_t r = 1; r <= repeat; ++r) {
      if (!finished(done, name, r, RunKind::profiled)) plan.push_back({configuration, r, RunKind::profiled});
    }
    if (calibrate && !finished(done, name, 1, RunKind::calibration)) {
      plan.push_back({configuration, 1, RunKind::calibration});
    }
  }
  return plan;
}

}  // namespace gpuprof::study
