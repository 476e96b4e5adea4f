#pragma once

#include <string>
#include <vector>

#include "options.hpp"

namespace gpuprof::workloads {

enum class Strategy { single, data_parallel, host_staged, tower_parallel, alternate };

// tower-parallel and alternate split one model across GPUs instead of replicating it.
bool places_layers_across_gpus(Strategy strategy);

Strategy parse_strategy(const std::string& name);
const char* strategy_name(Strategy strategy);

// How many GPUs `--gpus N|all` means on a machine with `device_count` devices.
int resolve_gpu_count(const std::string& gpus, int device_count);

// Per-GPU batch sizes for a global batch: equal shares, or an error naming the
// remainder, because unequal shares would weigh replicas' gradients unequally.
std::vector<int> split_batch(int global_batch, int gpu_count);

// The run, fully decided before any GPU work starts.
struct TrainingPlan {
  Strategy strategy = Strategy::single;
  int gpu_count = 1;
  int global_batch = 0;
  int per_gpu_batch = 0;     // the global batch when one model spans the GPUs
  int replicas = 1;          // model copies: gpu_count for data-parallel and host-staged, else 1
  int steps_per_epoch = 0;  // full batches only; the remainder of an epoch is dropped
  int total_steps = 0;
  int epochs = 0;           // epochs started, the last one possibly partial under --steps
  int warmup_steps = 0;     // the first steps, run but left out of samples/s
  int validation_batches = 0;
  int validation_batch = 0;  // per-batch size used for validation on GPU 0
};

TrainingPlan make_training_plan(const WorkloadOptions& options, int device_count);

}  // namespace gpuprof::workloads
