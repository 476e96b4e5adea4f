#pragma once

// Which runs a sweep still has to do: everything on a new study, and on a
// resumed one every run not yet finished (a run left `running` was interrupted).

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/study/study_data.hpp"

namespace gpuprof::study {

struct PlannedRun {
  Configuration configuration;
  std::int64_t repeat = 1;
  RunKind kind = RunKind::profiled;
  friend bool operator==(const PlannedRun&, const PlannedRun&) = default;
};

// In grid order: each configuration's repeats, then its calibration run (one per
// configuration, when asked for). Runs in `done` that finished (ok, failed or skipped) are left out.
std::vector<PlannedRun> plan_sweep(const std::vector<Configuration>& grid, std::int64_t repeat, bool calibrate,
                                   const std::vector<RunRecord>& done);

}  // namespace gpuprof::study
