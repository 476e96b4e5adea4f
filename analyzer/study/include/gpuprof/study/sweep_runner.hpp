#pragma once

// Runs the planned runs of a sweep one after another and records each in the study file.

#include <functional>
#include <string>
#include <vector>

#include "gpuprof/progress/progress.hpp"
#include "gpuprof/study/study_store.hpp"
#include "gpuprof/study/sweep_plan.hpp"

namespace gpuprof::study {

struct SweepEnvironment {
  std::string study_dir;
  std::string gpuprof_binary;   // runs `gpuprof record` for profiled runs
  std::string workload_binary;  // gpuprof-workload, for the built-in workloads
  progress::ProgressCallback progress;  // runs done of the plan, with the run now starting; may be empty
  std::function<void(const std::string&)> on_failure;  // one line per failed run; may be empty
};

struct SweepTally {
  std::size_t ok = 0, failed = 0, skipped = 0;
};

// A failing run (non-zero exit, missing program) is recorded with its error and the sweep goes on.
SweepTally run_sweep(StudyStore& store, const SweepSettings& settings, const std::vector<PlannedRun>& plan,
                     const SweepEnvironment& environment);

}  // namespace gpuprof::study
