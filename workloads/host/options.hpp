#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpuprof::workloads {

// Everything a user can ask of gpuprof-workload, as parsed from the command line.
// Defaults are a small run that finishes in seconds on one GPU.
struct WorkloadOptions {
  std::string model = "rnn";

  // rnn model
  std::string cell = "gru";  // gru | lstm
  int layers = 2;
  int hidden = 128;
  int seq_len = 32;
  int features = 16;
  int classes = 4;
  double dropout = 0.0;

  // data
  int train_samples = 8192;
  int validation_samples = 1024;

  // run control
  int batch = 64;  // global, split evenly across GPUs
  int epochs = 2;
  int steps = 0;   // when > 0, a fixed number of training steps instead of --epochs
  int eval_every = 1;
  std::uint64_t seed = 1;

  // optimisation
  std::string optimizer = "adam";  // sgd | adam
  double learning_rate = 1e-3;
  double momentum = 0.9;
  std::string precision = "fp32";  // fp32 | tf32 | bf16 (refused for now)

  // input pipeline
  std::string host_memory = "pageable";  // pageable | pinned
  int prefetch = 0;                      // 0 synchronous, 1 double, 2 triple buffering
  int loader_us = 0;                     // host work per batch imitating a slow loader

  // devices
  std::string gpus = "1";              // N | all
  std::string strategy = "single";     // single | data-parallel | host-staged
  bool overlap_allreduce = false;
  int bucket_kib = 1024;

  std::string summary_path;  // empty: no JSON summary
  bool quiet = false;
};

// Outcome of reading the command line: either options to run with, or a
// message and exit status (help text, or one line naming the bad option).
struct ParsedCommandLine {
  std::optional<WorkloadOptions> options;
  int exit_code = 0;
  std::string output;  // for stdout (help)
  std::string error;   // for stderr, one line
};

ParsedCommandLine parse_command_line(int argc, const char* const argv[]);

// Rejects sizes and combinations that cannot work, before any GPU is touched.
// Throws WorkloadError naming the offending option.
void validate_options(const WorkloadOptions& options);

}  // namespace gpuprof::workloads
