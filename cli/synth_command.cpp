#include <fmt/format.h>

#include <chrono>
#include <map>
#include <memory>

#include "command.hpp"
#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::cli {
namespace {

struct SynthArguments {
  std::string output;
  synthetic::SynthOptions options;
  std::string input_memory = "mixed";
};

int run_synth(SynthArguments& arguments, const Invocation& invocation) {
  arguments.options.command_line = invocation.command_line;
  arguments.options.tool_version = GPUPROF_VERSION;
  const std::map<std::string, synthetic::InputMemory> memories = {
      {"pinned", synthetic::InputMemory::pinned},
      {"pageable", synthetic::InputMemory::pageable},
      {"mixed", synthetic::InputMemory::mixed}};
  arguments.options.input_memory = memories.at(arguments.input_memory);
  const auto started = std::chrono::steady_clock::now();
  const auto summary = synthetic::write_synthetic_trace(arguments.output, arguments.options);
  const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - started;
  fmt::print("{}: {} events, {} devices, {} steps, {} kernels per step ({:.2f} s)\n", printable(arguments.output),
             summary.events, arguments.options.devices, arguments.options.steps, summary.kernels_per_step,
             seconds.count());
  return kExitOk;
}

}  // namespace

void add_synth_command(CLI::App& app, Action& action) {
  auto arguments = std::make_shared<SynthArguments>();
  auto& options = arguments->options;
  auto* command = app.add_subcommand(
      "synth", "Generate a deterministic, realistic synthetic training trace (for tests, demos and benchmarks)");
  command->add_option("-o,--output", arguments->output, "Trace file to write")->required()
      ->check(kNonEmptyPath);
  command->add_option("--devices", options.devices, "GPUs in the job")->capture_default_str();
  command->add_option("--steps", options.steps, "Training steps")->capture_default_str();
  command->add_option("--events", options.events,
                      "Approximate total events; sets kernels per step (0: use --kernels-per-step)")
      ->capture_default_str();
  command->add_option("--kernels-per-step", options.kernels_per_step, "Kernels per device per step")
      ->capture_default_str();
  command->add_option("--seed", options.seed, "Random seed; the same seed gives the same file")->capture_default_str();
  command->add_option("--loader-us", options.loader_us, "Host batch loading time per step, microseconds")
      ->capture_default_str();
  command->add_option("--kernel-us", options.kernel_us, "Mean kernel duration, microseconds")->capture_default_str();
  command->add_option("--input-bytes", options.input_bytes, "Input batch bytes per device per step")
      ->capture_default_str();
  command->add_option("--input-memory", arguments->input_memory, "Host memory of input batches")
      ->check(CLI::IsMember({"pinned", "pageable", "mixed"}))
      ->capture_default_str();
  command->add_flag("--prefetch", options.prefetch, "Copy inputs on a separate stream ahead of compute");
  command->add_option("--batch-size", *options.batch_size,
                      "Samples per step of this process, written to the trace for compare and study")
      ->capture_default_str();
  command->add_option("--rank", options.rank, "Rank written into the trace metadata")->capture_default_str();
  command->add_option("--world-size", options.world_size, "World size written into the trace metadata")
      ->capture_default_str();
  command->add_flag("-f,--force", options.force, "Overwrite an existing output file");
  command->callback([arguments, &action] {
    action = [arguments](const Invocation& invocation) { return run_synth(*arguments, invocation); };
  });
}

}  // namespace gpuprof::cli
