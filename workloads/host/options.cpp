#include "options.hpp"

#include <algorithm>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

void add_model_options(CLI::App& app, WorkloadOptions& options) {
  app.add_option("model", options.model, "Workload to train (built: rnn)")
      ->required()
      ->check(CLI::IsMember({"rnn"}));
  app.add_option("--cell", options.cell, "Recurrent cell")->check(CLI::IsMember({"gru", "lstm"}));
  app.add_option("--layers", options.layers, "Stacked recurrent layers");
  app.add_option("--hidden", options.hidden, "Hidden units per recurrent layer");
  app.add_option("--seq-len", options.seq_len, "Time steps per sequence");
  app.add_option("--features", options.features, "Input features per time step");
  app.add_option("--classes", options.classes, "Output classes");
  app.add_option("--dropout", options.dropout, "Dropout between recurrent layers, in [0, 1)");
}

void add_run_options(CLI::App& app, WorkloadOptions& options) {
  app.add_option("--train-samples", options.train_samples, "Synthetic training sequences");
  app.add_option("--validation-samples", options.validation_samples, "Synthetic validation sequences");
  app.add_option("--batch", options.batch, "Global batch size (split evenly across GPUs)");
  auto* epochs = app.add_option("--epochs", options.epochs, "Training epochs");
  app.add_option("--steps", options.steps, "Training steps instead of --epochs")->excludes(epochs);
  app.add_option("--eval-every", options.eval_every, "Validate every N epochs");
  app.add_option("--seed", options.seed, "Seed for data, initial weights and shuffling");
  app.add_option("--optimizer", options.optimizer, "Optimizer")->check(CLI::IsMember({"sgd", "adam"}));
  app.add_option("--lr", options.learning_rate, "Learning rate");
  app.add_option("--momentum", options.momentum, "SGD momentum");
  app.add_option("--precision", options.precision, "Arithmetic precision")
      ->check(CLI::IsMember({"fp32", "tf32", "bf16"}));
  app.add_option("--summary", options.summary_path, "Write a JSON summary to this file");
  app.add_flag("--quiet", options.quiet, "Print no per-epoch lines");
}

void add_pipeline_and_device_options(CLI::App& app, WorkloadOptions& options) {
  app.add_option("--host-memory", options.host_memory, "Host batch memory")
      ->check(CLI::IsMember({"pageable", "pinned"}));
  app.add_option("--prefetch", options.prefetch, "Batches copied ahead on a copy stream (0, 1, 2)");
  app.add_option("--loader-us", options.loader_us, "Extra host work per batch, microseconds");
  app.add_option("--gpus", options.gpus, "Number of GPUs, or all");
  app.add_option("--strategy", options.strategy, "Multi-GPU strategy")
      ->check(CLI::IsMember({"single", "data-parallel", "host-staged"}));
  app.add_flag("--overlap-allreduce", options.overlap_allreduce,
               "Start all-reducing a bucket as soon as its gradients are ready");
  app.add_option("--bucket-kib", options.bucket_kib, "All-reduce bucket size, KiB");
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
  result.options = options;
  return result;
}

void validate_options(const WorkloadOptions& options) {
  require(options.precision != "bf16",
          "--precision bf16 is not implemented yet in gpuprof-workload; use fp32 or tf32");
  require_range(options.layers, 1, 16, "--layers");
  require_range(options.hidden, 1, 8192, "--hidden");
  require_range(options.seq_len, 1, 4096, "--seq-len");
  require_range(options.features, 1, 8192, "--features");
  require_range(options.classes, 2, 1000, "--classes");
  require(options.dropout >= 0.0 && options.dropout < 1.0,
          fmt::format("--dropout must be in [0, 1), got {}", options.dropout));
  require_range(options.batch, 1, 1 << 20, "--batch");
  require_range(options.train_samples, 1, 1 << 24, "--train-samples");
  require_range(options.validation_samples, 1, 1 << 24, "--validation-samples");
  require(options.train_samples >= options.batch,
          fmt::format("--batch {} is larger than --train-samples {}", options.batch,
                      options.train_samples));
  require_range(options.epochs, 1, 1000000, "--epochs");
  require_range(options.steps, 0, 100000000, "--steps");
  require_range(options.eval_every, 1, 1000000, "--eval-every");
  require(options.learning_rate > 0.0 && options.learning_rate < 10.0,
          fmt::format("--lr must be in (0, 10), got {}", options.learning_rate));
  require(options.momentum >= 0.0 && options.momentum < 1.0,
          fmt::format("--momentum must be in [0, 1), got {}", options.momentum));
  require_range(options.prefetch, 0, 2, "--prefetch");
  require_range(options.loader_us, 0, 10000000, "--loader-us");
  require_range(options.bucket_kib, 1, 1 << 20, "--bucket-kib");
  // A sequence batch must fit a 32-bit element count: cuDNN and our kernels index with int.
  const double elements = static_cast<double>(options.batch) * options.seq_len *
                          std::max(options.features, options.hidden);
  require(elements < 2147483647.0,
          fmt::format("--batch {} x --seq-len {} x max(--features, --hidden) is too large",
                      options.batch, options.seq_len));
}

}  // namespace gpuprof::workloads
