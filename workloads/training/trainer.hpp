#pragma once

#include <iosfwd>
#include <memory>
#include <vector>

#include "options.hpp"
#include "run_summary.hpp"
#include "training_plan.hpp"

namespace gpuprof::workloads {

struct TrainingResult {
  RunSummary summary;
  std::vector<float> final_parameters;  // replica 0's (or the host master copy)
};

// Runs the whole training of options.model described by options and plan on GPUs
// 0..gpu_count-1, writing one line per epoch (and any placement notes) to `log` when not null.
TrainingResult train_workload(const WorkloadOptions& options, const TrainingPlan& plan, std::ostream* log);

// The rnn model's training (train_workload with options.model "rnn").
TrainingResult train_rnn(const WorkloadOptions& options, const TrainingPlan& plan, std::ostream* log);

}  // namespace gpuprof::workloads
