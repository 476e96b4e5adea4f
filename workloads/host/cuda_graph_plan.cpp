#include "cuda_graph_plan.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

std::string milliseconds(double seconds) { return fmt::format("{:.3f} ms", seconds * 1e3); }

}  // namespace

CudaGraphMode parse_cuda_graph_mode(const std::string& name) {
  if (name == "off") return CudaGraphMode::off;
  if (name == "on") return CudaGraphMode::on;
  if (name == "auto") return CudaGraphMode::automatic;
  throw WorkloadError(fmt::format("unknown --cuda-graphs '{}'; use off, on or auto", name), exit_bad_input);
}

std::string cuda_graph_ineligibility(const WorkloadOptions& options, const TrainingPlan& plan) {
  if (options.model != "rnn") return fmt::format("only the rnn model's step is captured, not {}'s", options.model);
  if (plan.strategy != Strategy::single || plan.gpu_count != 1) {
    return "only --strategy single on one GPU is captured (all-reduces and host copies stay outside graphs)";
  }
  return {};
}

StepRole CudaGraphSchedule::role(int step) const {
  if (capture_step >= 0 && step > capture_step) return StepRole::replay;
  if (step == capture_step) return StepRole::capture;
  if (first_measured >= 0 && step >= first_measured && step < first_measured + 2 * measured_pairs) {
    return (step - first_measured) % 2 == 0 ? StepRole::measure_launched : StepRole::measure_queued;
  }
  return StepRole::eager;
}

CudaGraphSchedule plan_cuda_graph_steps(CudaGraphMode mode, const std::string& ineligible, int warmup_steps,
                                        int total_steps) {
  CudaGraphSchedule schedule;
  if (mode == CudaGraphMode::off) return schedule;
  if (!ineligible.empty()) {
    schedule.not_possible = ineligible;
    return schedule;
  }
  if (mode == CudaGraphMode::automatic) {
    if (warmup_steps < minimum_warmup_for_auto) {
      schedule.not_possible = fmt::format("auto measures on warm-up steps and needs --warmup-steps {} or more, "
                                          "this run has {}",
                                          minimum_warmup_for_auto, warmup_steps);
      return schedule;
    }
    schedule.first_measured = 1;
    schedule.measured_pairs = (warmup_steps - 2) / 2;
  }
  const int capture = std::max(warmup_steps - 1, 1);
  if (capture >= total_steps) {
    schedule.first_measured = -1;
    schedule.measured_pairs = 0;
    schedule.not_possible = fmt::format("the run has {} steps; the first a graph can capture is step {}", total_steps,
                                        capture);
    return schedule;
  }
  schedule.capture_step = capture;
  return schedule;
}

CudaGraphDecision decide_cuda_graphs(CudaGraphMode mode, const CudaGraphSchedule& schedule,
                                     const std::vector<StepMeasurement>& measurements) {
  if (mode == CudaGraphMode::off) return {false, "off (--cuda-graphs off)", 0.0};
  if (schedule.capture_step < 0) return {false, fmt::format("off: {}", schedule.not_possible), 0.0};
  if (mode == CudaGraphMode::on) return {true, "on (--cuda-graphs on)", 0.0};
  std::vector<double> launched, host, queued;
  for (const StepMeasurement& m : measurements) {
    if (!m.valid || m.launched_gpu_seconds <= 0.0 || m.queued_gpu_seconds <= 0.0) continue;
    launched.push_back(m.launched_gpu_seconds);
    host.push_back(m.host_launch_seconds);
    queued.push_back(m.queued_gpu_seconds);
  }
  if (launched.empty()) {
    return {false,
            fmt::format("off: auto could not measure the warm-up ({} pairs, none valid: a call in the step waited "
                        "for the GPU while it was held)",
                        measurements.size()),
            0.0};
  }
  const double span = median(launched);
  const double own = median(queued);
  const double idle = std::max(span - own, 0.0);
  const double share = idle / span;
  const bool capture = share >= launch_bound_idle_share;
  const std::string figures = fmt::format(
      "warm-up steps {}-{}, medians of {}: the GPU spent {} on a step launched call by call and {} on the same "
      "step queued whole, so it idled {} ({:.0f} %) waiting for launches; the host took {} to launch a step",
      schedule.first_measured, schedule.first_measured + 2 * schedule.measured_pairs - 1, launched.size(),
      milliseconds(span), milliseconds(own), milliseconds(idle), share * 100.0, milliseconds(median(host)));
  return {capture,
          fmt::format("{} (auto: {}; graphs from {:.0f} % idle)", capture ? "on" : "off", figures,
                      launch_bound_idle_share * 100.0),
          share};
}

std::vector<std::string> moved_bindings(const std::vector<GraphBinding>& captured,
                                        const std::vector<GraphBinding>& now) {
  std::map<std::string, const GraphBinding*> then;
  for (const GraphBinding& binding : captured) then[binding.name] = &binding;
  std::vector<std::string> moved;
  for (const GraphBinding& binding : now) {
    const auto found = then.find(binding.name);
    if (found == then.end()) {
      moved.push_back(binding.name);
      continue;
    }
    if (found->second->address != binding.address || found->second->bytes != binding.bytes) moved.push_back(binding.name);
    then.erase(found);
  }
  for (const auto& [name, binding] : then) moved.push_back(name);
  return moved;
}

}  // namespace gpuprof::workloads
