#pragma once

#include <optional>
#include <string>
#include <vector>

#include "options.hpp"
#include "training_plan.hpp"

namespace gpuprof::workloads {

struct EpochRecord {
  int epoch = 0;  // 1-based
  int steps = 0;
  double train_loss = 0.0;
  double train_accuracy = 0.0;
  std::optional<double> validation_loss;
  std::optional<double> validation_accuracy;
  double seconds = 0.0;  // training time of the epoch, validation excluded
  double samples_per_second = 0.0;  // over the epoch's timed steps (0 when all were warm-up)
  int warmup_steps = 0;             // of `steps`, those run before timing started
};

struct RunSummary {
  WorkloadOptions options;
  TrainingPlan plan;
  std::vector<std::string> device_names;
  std::size_t parameter_count = 0;
  int transfers_per_step = 0;  // copies between GPUs the placement plan makes each step
  std::vector<EpochRecord> epochs;
  double training_seconds = 0.0;    // every step, warm-up included
  double samples_per_second = 0.0;  // timed steps only
  int warmup_steps = 0;
  int timed_steps = 0;
  double timed_seconds = 0.0;
  std::string cuda_graphs = "off (--cuda-graphs off)";  // whether the step was graphed, and why
};

// One human-readable line per epoch, stable enough to grep.
std::string format_epoch_line(const EpochRecord& record);

// The run's throughput and what it covers: timed steps, warm-up steps left out.
std::string format_throughput_line(const RunSummary& summary);

// How the run fed and launched its steps: the input pipeline and the CUDA graph decision.
std::string format_input_pipeline(const WorkloadOptions& options);
std::string format_run_conditions(const RunSummary& summary);

// The --summary file, format "gpuprof.workload/1" (see workloads/README.md).
std::string summary_to_json(const RunSummary& summary);
void write_summary_file(const RunSummary& summary, const std::string& path);

}  // namespace gpuprof::workloads
