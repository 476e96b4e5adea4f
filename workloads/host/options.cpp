#include "options.hpp"

#include <algorithm>
#include <charconv>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

void add_model_options(CLI::App& app, WorkloadOptions& options) {
  app.add_option("model", options.model, "Workload to train")
      ->required()
      ->check(CLI::IsMember({"rnn", "towers", "mlp", "resnet"}));
  app.add_option("--cell", options.cell, "Recurrent cell")->check(CLI::IsMember({"gru", "lstm"}));
  app.add_option("--layers", options.layers, "Stacked recurrent layers");
  app.add_option("--hidden", options.hidden, "Hidden units per recurrent layer");
  app.add_option("--seq-len", options.seq_len, "Time steps per sequence");
  app.add_option("--features", options.features, "Input features per time step");
  app.add_option("--classes", options.classes, "Output classes (rnn: 4, resnet: 285)");
  app.add_option("--depth", options.depth, "resnet: 18, 34 or 50 layers");
  app.add_option("--image-size", options.image_size, "resnet: image height and width in pixels");
  app.add_option("--conv-algo", options.conv_algo, "resnet: convolution algorithms timed once per shape (measured: "
                 "cuDNN's find; graph: plans of cuDNN's graph API), or cuDNN's untimed heuristics")
      ->check(CLI::IsMember({"measured", "heuristic", "graph"}));
  app.add_option("--batch-norm", options.batch_norm, "resnet: batch norm through the fused ...Ex calls, or the "
                 "legacy calls")->check(CLI::IsMember({"fused", "legacy"}));
  app.add_option("--layout", options.layout, "resnet: tensor layout; auto is channels-last (NHWC) with tf32 and bf16, "
                 "NCHW with fp32")->check(CLI::IsMember({"auto", "nhwc", "nchw"}));
  app.add_option("--dropout", options.dropout, "Dropout between recurrent layers, in [0, 1)");
}

void add_towers_options(CLI::App& app, WorkloadOptions& options) {
  app.add_option("--users", options.users, "towers: synthetic users");
  app.add_option("--items", options.items, "towers: synthetic items");
  app.add_option("--vocab", options.vocab, "towers: words in the review vocabulary");
  app.add_option("--review-len", options.review_len, "towers: tokens per user or item review document");
  app.add_option("--embedding", options.embedding, "towers: word embedding width");
  app.add_option("--filters", options.filters, "towers: 1-D convolution filters per tower");
  app.add_option("--kernel-size", options.kernel_size, "towers: 1-D convolution width in tokens");
}

void add_run_options(CLI::App& app, WorkloadOptions& options) {
  app.add_option("--train-samples", options.train_samples, "Synthetic training sequences");
  app.add_option("--validation-samples", options.validation_samples, "Synthetic validation sequences");
  app.add_option("--batch", options.batch, "Global batch size (split evenly across GPUs)");
  auto* epochs = app.add_option("--epochs", options.epochs, "Training epochs");
  app.add_option("--steps", options.steps, "Training steps instead of --epochs")->excludes(epochs);
  app.add_option("--eval-every", options.eval_every, "Validate every N epochs");
  app.add_option("--warmup-steps", options.warmup_steps,
                 "Steps run before timing, left out of samples/s (default 10, fewer for shorter runs)");
  app.add_option("--seed", options.seed, "Seed for data, initial weights and shuffling");
  app.add_option("--optimizer", options.optimizer, "Optimizer")->check(CLI::IsMember({"sgd", "adam"}));
  app.add_option("--lr", options.learning_rate, "Learning rate");
  app.add_option("--momentum", options.momentum, "SGD momentum");
  app.add_option("--precision", options.precision, "Arithmetic precision")
      ->check(CLI::IsMember({"fp32", "tf32", "bf16"}));
  app.add_option("--rnn-algo", options.rnn_algo, "rnn: cuDNN algorithm: standard, or auto (persistent where it fits)")
      ->check(CLI::IsMember({"standard", "auto"}));
  app.add_option("--cuda-graphs", options.cuda_graphs,
                 "rnn, one GPU: capture the training step once after warm-up and replay it: off, on, or auto "
                 "(on when the warm-up measures launch-bound GPU idle); default off")
      ->check(CLI::IsMember({"off", "on", "auto"}));
  app.add_option("--summary", options.summary_path, "Write a JSON summary to this file");
  app.add_flag("--quiet", options.quiet, "Print no per-epoch lines");
}

void add_pipeline_and_device_options(CLI::App& app, WorkloadOptions& options) {
  app.add_option("--loader", options.loader,
                 "Where batches are assembled: pool (loader threads ahead of training) or inline (on the "
                 "training thread)")
      ->check(CLI::IsMember({"pool", "inline"}));
  app.add_option("--host-memory", options.host_memory, "Host batch memory (default pinned)")
      ->check(CLI::IsMember({"pageable", "pinned"}));
  app.add_option("--prefetch", options.prefetch, "Batches copied ahead on a copy stream (0, 1, 2; default 2)");
  app.add_option("--loader-us", options.loader_us, "Extra host work per batch, microseconds");
  app.add_option("--loader-threads", options.loader_threads,
                 "Loader threads (pool: one batch each; inline: threads sharing each batch; default 4)");
  app.add_option("--gpus", options.gpus, "Number of GPUs, or all");
  app.add_option("--strategy", options.strategy, "Multi-GPU strategy")
      ->check(CLI::IsMember({"single", "data-parallel", "host-staged", "tower-parallel", "alternate"}));
  app.add_flag("--overlap-allreduce", options.overlap_allreduce,
               "Start all-reducing a bucket as soon as its gradients are ready");
  app.add_option("--bucket-kib", options.bucket_kib, "All-reduce bucket size, KiB");
  app.add_flag("--print-plan", options.print_plan,
               "Print which layer runs on which GPU and every transfer, then exit");
}

void require(bool condition, const std::string& message) {
  if (!condition) throw WorkloadError(message, exit_bad_input);
}

void require_range(int value, int low, int high, const char* name) {
  require(value >= low && value <= high,
          fmt::format("{} must be between {} and {}, got {}", name, low, high, value));
}

}  // namespace

ParsedCommandLine parse_command_line(int argc, const char* const argv[]) {
  WorkloadOptions options;
  CLI::App app{"gpuprof-workload: built-in CUDA training workloads to profile", "gpuprof-workload"};
  add_model_options(app, options);
  add_towers_options(app, options);
  add_run_options(app, options);
  add_pipeline_and_device_options(app, options);
  ParsedCommandLine result;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    result.output = app.help();
    return result;
  } catch (const CLI::ParseError& error) {
    result.exit_code = exit_bad_input;
    result.error = fmt::format("gpuprof-workload: {}", error.what());
    return result;
  }
  if (options.model == "resnet" && app.count("--classes") == 0) options.classes = resnet_default_classes;
  result.options = options;
  return result;
}

int planned_training_steps(const WorkloadOptions& options) {
  if (options.steps > 0) return options.steps;
  const int per_epoch = options.batch > 0 ? options.train_samples / options.batch : 0;
  return static_cast<int>(std::min<long long>(static_cast<long long>(options.epochs) * per_epoch, 1 << 30));
}

int warmup_steps_for(const WorkloadOptions& options, int total_steps) {
  if (options.warmup_steps) return *options.warmup_steps;
  return std::clamp(total_steps - 1, 0, default_warmup_steps);
}

const char* supported_strategies(const std::string& model) {
  if (model == "towers") return "single, data-parallel, tower-parallel, alternate";
  if (model == "resnet") return "single, data-parallel";
  return "single, data-parallel, host-staged";
}

namespace {

// The number in --gpus N, or nothing for "all" and for text resolve_gpu_count will refuse.
std::optional<int> numeric_gpus(const std::string& gpus) {
  int count = 0;
  const auto* end = gpus.data() + gpus.size();
  const auto [rest, status] = std::from_chars(gpus.data(), end, count);
  if (status != std::errc{} || rest != end) return std::nullopt;
  return count;
}

void validate_strategy(const WorkloadOptions& options) {
  const std::string supported = supported_strategies(options.model);
  require(supported.find(options.strategy) != std::string::npos,
          fmt::format("--strategy {} is not available for the {} model; it supports {}", options.strategy,
                      options.model, supported));
  const bool placed = options.strategy == "tower-parallel" || options.strategy == "alternate";
  const std::optional<int> gpus = numeric_gpus(options.gpus);
  if (placed && gpus) {
    require(*gpus >= 2, fmt::format("--strategy {} places layers on different GPUs and needs --gpus 2 or more "
                                    "(got --gpus {}); use --strategy single on one GPU",
                                    options.strategy, *gpus));
    const int most = options.strategy == "tower-parallel" ? 3 : 5;
    require(*gpus <= most, fmt::format("--strategy {} uses at most {} GPUs for the towers model (got --gpus {})",
                                       options.strategy, most, *gpus));
  }
}

void validate_rnn(const WorkloadOptions& options) {
  require_range(options.layers, 1, 16, "--layers");
  require_range(options.hidden, 1, 8192, "--hidden");
  require_range(options.seq_len, 1, 4096, "--seq-len");
  require_range(options.features, 1, 8192, "--features");
  require_range(options.classes, 2, 1000, "--classes");
  require(options.dropout >= 0.0 && options.dropout < 1.0,
          fmt::format("--dropout must be in [0, 1), got {}", options.dropout));
  // A sequence batch must fit a 32-bit element count: cuDNN and our kernels index with int.
  const double elements = static_cast<double>(options.batch) * options.seq_len *
                          std::max(options.features, options.hidden);
  require(elements < 2147483647.0,
          fmt::format("--batch {} x --seq-len {} x max(--features, --hidden) is too large",
                      options.batch, options.seq_len));
}

void validate_towers(const WorkloadOptions& options) {
  require_range(options.users, 2, 10000000, "--users");
  require_range(options.items, 2, 10000000, "--items");
  require_range(options.vocab, 16, 10000000, "--vocab");
  require_range(options.review_len, 2, 100000, "--review-len");
  require_range(options.embedding, 1, 4096, "--embedding");
  require_range(options.filters, 1, 4096, "--filters");
  require_range(options.kernel_size, 1, 64, "--kernel-size");
  require(options.kernel_size <= options.review_len,
          fmt::format("--kernel-size {} is longer than --review-len {}", options.kernel_size,
                      options.review_len));
  // The unfolded convolution input (batch x positions x kernel x embedding) is indexed with int.
  const double unfolded = static_cast<double>(options.batch) * options.review_len * options.kernel_size *
                          std::max(options.embedding, options.filters);
  require(unfolded < 2147483647.0,
          fmt::format("--batch {} x --review-len {} x --kernel-size {} x --embedding is too large",
                      options.batch, options.review_len, options.kernel_size));
}

void validate_resnet(const WorkloadOptions& options) {
  require(options.depth == 18 || options.depth == 34 || options.depth == 50,
          fmt::format("--depth must be 18, 34 or 50, got {}", options.depth));
  // Five stride-2 reductions must leave at least one pixel.
  require_range(options.image_size, 32, 1024, "--image-size");
  require_range(options.classes, 2, 100000, "--classes");
  // The largest activation (the stem's 64 channels at half the image size; ResNet-50's first stage has
  // 4 x 64 channels at a quarter) of one GPU's batch is indexed with int.
  const int gpus = std::max(1, numeric_gpus(options.gpus).value_or(1));
  const double half = options.image_size / 2.0;
  const double largest = static_cast<double>(options.batch) / gpus * 64.0 * half * half;
  require(largest < 2147483647.0, fmt::format("--batch {} x --image-size {} is too large for one GPU's "
                                              "activations; use a smaller --batch", options.batch, options.image_size));
}

// An explicit warm-up must leave at least one timed step, or samples/s would be 0/0.
void validate_warmup(const WorkloadOptions& options) {
  if (!options.warmup_steps) return;
  const int warmup = *options.warmup_steps;
  require(warmup >= 0, fmt::format("--warmup-steps must be 0 or more, got {}", warmup));
  const int steps = planned_training_steps(options);
  require(warmup < steps, fmt::format("--warmup-steps {} leaves no timed step: the run trains {} steps; use "
                                      "--warmup-steps {} or fewer, or more --steps",
                                      warmup, steps, std::max(steps - 1, 0)));
}

void validate_run(const WorkloadOptions& options) {
  require_range(options.batch, 1, 1 << 20, "--batch");
  require_range(options.train_samples, 1, 1 << 24, "--train-samples");
  require_range(options.validation_samples, 1, 1 << 24, "--validation-samples");
  require(options.train_samples >= options.batch,
          fmt::format("--batch {} is larger than --train-samples {}", options.batch,
                      options.train_samples));
  require_range(options.epochs, 1, 1000000, "--epochs");
  require_range(options.steps, 0, 100000000, "--steps");
  require_range(options.eval_every, 1, 1000000, "--eval-every");
  validate_warmup(options);
  require(options.learning_rate > 0.0 && options.learning_rate < 10.0,
          fmt::format("--lr must be in (0, 10), got {}", options.learning_rate));
  require(options.momentum >= 0.0 && options.momentum < 1.0,
          fmt::format("--momentum must be in [0, 1), got {}", options.momentum));
  require_range(options.prefetch, 0, 2, "--prefetch");
  require_range(options.loader_us, 0, 10000000, "--loader-us");
  require_range(options.loader_threads, 1, 64, "--loader-threads");
  require_range(options.bucket_kib, 1, 1 << 20, "--bucket-kib");
}

}  // namespace

void validate_options(const WorkloadOptions& options) {
  validate_run(options);
  validate_strategy(options);
  if (options.model == "rnn") validate_rnn(options);
  if (options.model == "towers") validate_towers(options);
  if (options.model == "resnet") validate_resnet(options);
  if (options.model == "mlp") {
    // 8000 input features per sample; the whole batch is indexed with int.
    require(static_cast<double>(options.batch) * 8000.0 < 2147483647.0,
            fmt::format("--batch {} is too large for the mlp model (8000 inputs per sample)", options.batch));
  }
}

}  // namespace gpuprof::workloads
