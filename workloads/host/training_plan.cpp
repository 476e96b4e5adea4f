#include "training_plan.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {

Strategy parse_strategy(const std::string& name) {
  if (name == "single") return Strategy::single;
  if (name == "data-parallel") return Strategy::data_parallel;
  if (name == "host-staged") return Strategy::host_staged;
  if (name == "tower-parallel") return Strategy::tower_parallel;
  if (name == "alternate") return Strategy::alternate;
  throw WorkloadError(fmt::format("unknown --strategy '{}'", name), exit_bad_input);
}

const char* strategy_name(Strategy strategy) {
  switch (strategy) {
    case Strategy::single: return "single";
    case Strategy::data_parallel: return "data-parallel";
    case Strategy::host_staged: return "host-staged";
    case Strategy::tower_parallel: return "tower-parallel";
    case Strategy::alternate: return "alternate";
  }
  return "?";
}

bool places_layers_across_gpus(Strategy strategy) {
  return strategy == Strategy::tower_parallel || strategy == Strategy::alternate;
}

int resolve_gpu_count(const std::string& gpus, int device_count) {
  if (gpus == "all") return device_count;
  int count = 0;
  const auto* end = gpus.data() + gpus.size();
  const auto [rest, status] = std::from_chars(gpus.data(), end, count);
  if (status != std::errc{} || rest != end || count < 1) {
    throw WorkloadError(fmt::format("--gpus must be a positive number or 'all', got '{}'", gpus), exit_bad_input);
  }
  if (count > device_count) {
    throw WorkloadError(fmt::format("--gpus {} asks for more GPUs than this machine has ({})", count,
                                    device_count), exit_bad_input);
  }
  return count;
}

std::vector<int> split_batch(int global_batch, int gpu_count) {
  if (gpu_count < 1) throw WorkloadError("at least one GPU is needed to split a batch", exit_bad_input);
  if (global_batch % gpu_count != 0) {
    throw WorkloadError(fmt::format(
        "--batch {} does not split evenly across {} GPUs (remainder {}); use a multiple of {}",
        global_batch, gpu_count, global_batch % gpu_count, gpu_count), exit_bad_input);
  }
  if (global_batch < gpu_count) {
    throw WorkloadError(
        fmt::format("--batch {} is smaller than the number of GPUs ({})", global_batch, gpu_count), exit_bad_input);
  }
  return std::vector<int>(static_cast<std::size_t>(gpu_count), global_batch / gpu_count);
}

TrainingPlan make_training_plan(const WorkloadOptions& options, int device_count) {
  validate_options(options);
  TrainingPlan plan;
  plan.strategy = parse_strategy(options.strategy);
  plan.gpu_count = resolve_gpu_count(options.gpus, device_count);
  if (plan.strategy == Strategy::single && plan.gpu_count != 1) {
    throw WorkloadError(fmt::format(
        "--strategy single trains on one GPU, but --gpus asks for {}; use --strategy data-parallel "
        "or host-staged",
        plan.gpu_count), exit_bad_input);
  }
  plan.global_batch = options.batch;
  if (places_layers_across_gpus(plan.strategy)) {
    // --gpus all on a one-GPU machine gets here; a numeric --gpus 1 was refused by validate_options.
    if (plan.gpu_count < 2) {
      throw WorkloadError(fmt::format("--strategy {} needs at least 2 GPUs, but only {} is available",
                                      strategy_name(plan.strategy), plan.gpu_count), exit_bad_input);
    }
    plan.per_gpu_batch = options.batch;
    plan.replicas = 1;
  } else {
    plan.per_gpu_batch = split_batch(options.batch, plan.gpu_count).front();
    plan.replicas = plan.gpu_count;
  }
  plan.steps_per_epoch = options.train_samples / options.batch;
  if (options.steps > 0) {
    plan.total_steps = options.steps;
    plan.epochs = (options.steps + plan.steps_per_epoch - 1) / plan.steps_per_epoch;
  } else {
    plan.epochs = options.epochs;
    plan.total_steps = options.epochs * plan.steps_per_epoch;
  }
  plan.warmup_steps = warmup_steps_for(options, plan.total_steps);
  // Validation runs whole on GPU 0 in batches no larger than a training batch,
  // the last one possibly smaller, so every validation sample counts.
  plan.validation_batch = std::min(options.batch, options.validation_samples);
  plan.validation_batches =
      (options.validation_samples + plan.validation_batch - 1) / plan.validation_batch;
  return plan;
}

}  // namespace gpuprof::workloads
