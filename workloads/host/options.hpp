#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpuprof::workloads {

// Everything a user can ask of gpuprof-workload, as parsed from the command line.
// Defaults are a small run that finishes in seconds on one GPU.
inline constexpr int resnet_default_classes = 285;

struct WorkloadOptions {
  std::string model = "rnn";

  // rnn model
  std::string cell = "gru";  // gru | lstm
  int layers = 2;
  int hidden = 128;
  int seq_len = 32;
  int features = 16;
  int classes = 4;  // rnn default; resnet's is resnet_default_classes
  double dropout = 0.0;

  // towers model (DeepCoNN-style rating prediction from review text)
  int users = 1000;
  int items = 1000;
  int vocab = 5000;
  int review_len = 96;   // tokens in each user's and each item's review document
  int embedding = 64;
  int filters = 100;
  int kernel_size = 3;

  // resnet model (--classes defaults to 285 for it)
  int depth = 50;  // 18 | 34 | 50
  int image_size = 224;
  std::string conv_algo = "measured";  // measured | heuristic | graph (resnet convolutions; see README)
  std::string batch_norm = "fused";    // fused | legacy (resnet batch norm; see README)
  std::string layout = "auto";         // auto | nhwc | nchw (resnet tensors; auto: NHWC but in fp32)

  // data
  int train_samples = 8192;
  int validation_samples = 1024;

  // run control
  int batch = 64;  // global, split evenly across GPUs
  int epochs = 2;
  int steps = 0;   // when > 0, a fixed number of training steps instead of --epochs
  int eval_every = 1;
  std::uint64_t seed = 1;
  // Steps run before timing starts (not in samples/s). Unset: 10, or one fewer than the run's steps
  // when it is shorter; set explicitly, it must leave a timed step.
  std::optional<int> warmup_steps;

  // optimisation
  std::string optimizer = "adam";  // sgd | adam
  double learning_rate = 1e-3;
  double momentum = 0.9;
  std::string precision = "fp32";  // fp32 | tf32 | bf16 (mixed, fp32 master weights)

  std::string rnn_algo = "auto";  // standard | auto (persistent where cuDNN and the shape allow)
  // off | on | auto (on when the warm-up measures the GPU idling for launches); rnn, one GPU
  std::string cuda_graphs = "off";

  // input pipeline (the old behaviour: --loader inline --host-memory pageable --prefetch 0)
  std::string loader = "pool";         // pool: batches assembled off the training thread | inline
  std::string host_memory = "pinned";  // pageable | pinned
  int prefetch = 2;                    // 0 synchronous, 1 double, 2 triple buffering
  int loader_us = 0;                   // host work per batch imitating a slow loader
  int loader_threads = 4;              // pool: loader threads, one batch each; inline: threads per batch

  // devices
  std::string gpus = "1";              // N | all
  // single | data-parallel | host-staged (rnn, mlp) | tower-parallel | alternate (towers)
  std::string strategy = "single";
  bool overlap_allreduce = false;
  int bucket_kib = 1024;

  bool print_plan = false;   // print the placement plan and exit
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

// Rejects sizes and combinations that cannot work, before any GPU is touched,
// including a strategy the model does not support and multi-GPU placements asked on one GPU.
// Throws WorkloadError naming the offending option.
void validate_options(const WorkloadOptions& options);

// The training steps the options ask for (--steps, or --epochs of whole batches).
int planned_training_steps(const WorkloadOptions& options);

// The warm-up steps of a run of `total_steps`: --warmup-steps, or the default (10, but always
// one timed step when the run has two or more, so that step 0 is never timed).
inline constexpr int default_warmup_steps = 10;
int warmup_steps_for(const WorkloadOptions& options, int total_steps);

// The strategies a model can train with, for messages and checks.
const char* supported_strategies(const std::string& model);

}  // namespace gpuprof::workloads
