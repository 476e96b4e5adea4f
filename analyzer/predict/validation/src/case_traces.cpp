#include "case_traces.hpp"

#include <algorithm>

#include "gpuprof/synthetic/synthetic_trace.hpp"

namespace gpuprof::predict {
namespace {

constexpr std::int64_t kKernelsPerStep = 400;
// synth's kernels per step in units of its mean kernel time: 200 forward (1x), 199 backward (1.3x), one
// optimizer kernel (2x).
constexpr double kKernelTimesPerStep = 200.0 + 199.0 * 1.3 + 2.0;

}  // namespace

void write_step_trace(const std::string& path, double step_ns, std::uint64_t seed) {
  synthetic::SynthOptions options;
  options.devices = 1;
  options.steps = 8;
  options.kernels_per_step = kKernelsPerStep;
  options.seed = seed;
  options.loader_us = 20;
  options.input_bytes = 1 << 20;
  options.input_memory = synthetic::InputMemory::pinned;
  options.kernel_us = std::max<std::int64_t>(1, static_cast<std::int64_t>(step_ns / 1'000.0 / kKernelTimesPerStep));
  options.force = true;
  options.batch_size = std::nullopt;
  synthetic::write_synthetic_trace(path, options);
}

Prediction predict_files(const std::string& trace, const std::optional<std::string>& per_gpu_trace,
                         const PredictOptions& options) {
  const auto model = trace::load_trace_model(trace, {.load_kernel_launch_details = false});
  if (!per_gpu_trace) return predict({&model}, options);
  const auto second = trace::load_trace_model(*per_gpu_trace, {.load_kernel_launch_details = false});
  return predict({&model, &second}, options);
}

}  // namespace gpuprof::predict
