#include "synthetic_run.hpp"

#include "gpuprof/synthetic/synthetic_trace.hpp"

namespace gpuprof::study {
namespace {

constexpr std::int64_t kDefaultSteps = 20;
constexpr std::int64_t kStepsPerEpoch = 10;

std::int64_t steps_of(const SweepSettings& settings) {
  if (settings.steps) return *settings.steps;
  if (settings.epochs) return *settings.epochs * kStepsPerEpoch;
  return kDefaultSteps;
}

}  // namespace

RunResult write_synthetic_run(const SweepSettings& settings, const Configuration& configuration,
                              std::int64_t repeat, const std::string& trace_path) {
  const std::int64_t per_gpu_batch = (configuration.batch + configuration.gpus - 1) / configuration.gpus;
  synthetic::SynthOptions options;
  options.devices = static_cast<std::int32_t>(configuration.gpus);
  options.steps = steps_of(settings);
  options.batch_size = configuration.batch;
  options.kernel_us = 5 + per_gpu_batch / 8;
  options.input_bytes = per_gpu_batch * 64 * 1024;
  // Repeats differ as real runs do; the same configuration and repeat give the same trace.
  options.seed = static_cast<std::uint64_t>((configuration.batch * 1'000 + configuration.gpus) * 1'000 + repeat);
  options.force = true;
  options.command_line = "gpuprof sweep --synthetic (" + configuration.name() + ")";
  options.tool_version = GPUPROF_VERSION;
  const auto trace = synthetic::write_synthetic_trace(trace_path, options);

  RunResult result;
  const double seconds = static_cast<double>(trace.end_ns - trace.start_ns) * 1e-9;
  result.summary.steps = options.steps;
  result.summary.training_seconds = seconds;
  result.summary.samples_per_second = static_cast<double>(configuration.batch * options.steps) / seconds;
  result.summary.model = "synthetic " + configuration.workload;
  result.time_seconds = seconds;
  result.time_source = "synthetic trace";
  result.seconds_per_step = seconds / static_cast<double>(options.steps);
  return result;
}

}  // namespace gpuprof::study
