// gpuprof-workload MODEL [options]: a built-in training program to profile.
#include <exception>
#include <iostream>

#include "device_context.hpp"
#include "options.hpp"
#include "placement_plan.hpp"
#include "run_summary.hpp"
#include "trainer.hpp"
#include "training_plan.hpp"
#include "workload_error.hpp"

namespace workloads = gpuprof::workloads;

namespace {

// --print-plan with a numeric --gpus needs no GPU: the plan depends only on the options.
int print_plan(const workloads::WorkloadOptions& options) {
  const int device_count =
      options.gpus == "all" ? workloads::require_cuda_devices() : workloads::resolve_gpu_count(options.gpus, 1 << 20);
  const workloads::TrainingPlan plan = workloads::make_training_plan(options, device_count);
  std::cout << workloads::format_placement_plan(
      workloads::make_placement_plan(workloads::model_graph(options.model), plan.strategy, plan.gpu_count));
  return workloads::exit_success;
}

int run(const workloads::WorkloadOptions& options) {
  // Options are checked before the GPU so a typo is reported on any machine.
  workloads::validate_options(options);
  if (options.print_plan) return print_plan(options);
  const int device_count = workloads::require_cuda_devices();
  const workloads::TrainingPlan plan = workloads::make_training_plan(options, device_count);
  // The placement is checked (e.g. too many GPUs for tower-parallel) before any GPU work.
  workloads::make_placement_plan(workloads::model_graph(options.model), plan.strategy, plan.gpu_count);
  const workloads::TrainingResult result = workloads::train_workload(options, plan, &std::cout);
  std::cout << workloads::format_throughput_line(result.summary) << '\n';
  std::cout << workloads::format_run_conditions(result.summary) << '\n';
  if (!options.summary_path.empty()) workloads::write_summary_file(result.summary, options.summary_path);
  return workloads::exit_success;
}

}  // namespace

int main(int argc, char** argv) {
  const workloads::ParsedCommandLine parsed = workloads::parse_command_line(argc, argv);
  if (!parsed.options) {
    std::cout << parsed.output;
    if (!parsed.error.empty()) std::cerr << parsed.error << '\n';
    return parsed.exit_code;
  }
  try {
    return run(*parsed.options);
  } catch (const workloads::WorkloadError& error) {
    std::cerr << "gpuprof-workload: " << error.what() << '\n';
    return error.exit_code();
  } catch (const std::exception& error) {
    std::cerr << "gpuprof-workload: unexpected error: " << error.what() << '\n';
    return workloads::exit_failure;
  }
}
