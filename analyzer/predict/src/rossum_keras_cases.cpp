#include <fmt/format.h>

#include <map>
#include <optional>
#include <tuple>

#include "case_band.hpp"
#include "case_traces.hpp"
#include "gpuprof/predict/case_validation.hpp"
#include "rossum_logs.hpp"

namespace gpuprof::predict {
namespace {

// Rossum's Keras InceptionV3 / ResNet50 benchmark on synthetic ImageNet, kuza55's and avolkov1's make_parallel,
// the parameter server on the CPU or on a GPU, batch 32 split across the GPUs (strong scaling), GPUs 0 to N-1
// (README of rossum-keras-multi-gpu/, "Which file holds which measurement").
struct Machine {
  const char* name;
  const char* log;       // under rossum-keras-multi-gpu/experiments/keras_tensorflow/
  const char* topology;  // under rossum-keras-multi-gpu/experiments/topology/
  const char* link;      // the preset measured on this machine's bandwidth tests
};
constexpr Machine kMachines[] = {
    {"7gforce", "benchmark_inception3_resnet50_results_7gforce.txt", "7gforce.txt", "pcie3-x1"},
    {"az-2x-m60", "benchmark_inception3_resnet50_results_az-2x-m60.txt", "az-2x-m60.txt", "pcie3-m60"},
};
constexpr const char* kRoot = "/rossum-keras-multi-gpu/experiments/";

CaseResult predict_run(const KerasRun& run, double single, const Machine& machine, const PredictOptions& base,
                       const std::string& work, std::uint64_t seed) {
  const auto trace = fmt::format("{}/rossum_keras_{}.sqlite", work, seed);
  write_step_trace(trace, static_cast<double>(run.batch) / single * 1e9, seed);
  auto options = base;
  options.gpus = {run.gpus};
  options.sync = run.server == "cpu" ? SyncStrategy::ps_cpu : SyncStrategy::ps_gpu;
  options.gradient_bytes = run.parameters * 4;  // fp32
  const auto prediction = predict_files(trace, std::nullopt, options);
  const auto& p = prediction.rows.front();
  const double per_step = single * prediction.measured_step_ns;  // strong scaling: the global batch is fixed
  CaseResult result{"rossum",
                    fmt::format("Rossum {} Keras {} {}, {} GPUs, PS {}", machine.name, run.architecture, run.method,
                                run.gpus, run.server),
                    per_step / p.step_ns,
                    *run.throughput,
                    per_step / p.high_ns,
                    per_step / p.low_ns,
                    "samples/s"};
  set_step_band(result, p, per_step / *run.throughput);
  result.source = fmt::format("rossumai/keras-multi-gpu {}", machine.log);
  result.one_gpu = single, result.gpus = run.gpus;
  result.verdict_right = (result.predicted > single) == (*run.throughput > single);
  return result;
}

}  // namespace

std::vector<CaseResult> run_rossum_keras_cases(const std::string& dir, const std::string& work) {
  std::vector<CaseResult> results;
  std::uint64_t seed = 800;
  for (const auto& machine : kMachines) {
    const auto runs = read_keras_log(dir + kRoot + "keras_tensorflow/" + machine.log);
    // The 1-GPU run of the same architecture and method (its parameter server is the GPU itself).
    std::map<std::tuple<std::string, std::string>, double> one_gpu;
    for (const auto& run : runs)
      if (run.gpus == 1 && run.throughput) one_gpu[{run.architecture, run.method}] = *run.throughput;
    PredictOptions options;
    options.scaling = Scaling::strong;
    options.schedule = AllReduceSchedule::after_backward;
    options.link = link_preset(machine.link);
    options.topology = read_topology_file(dir + kRoot + "topology/" + machine.topology);
    for (const auto& run : runs) {
      const auto single = one_gpu.find({run.architecture, run.method});
      if (run.gpus < 2 || !run.throughput || run.batch < 1 || run.parameters < 1 || single == one_gpu.end()) continue;
      results.push_back(predict_run(run, single->second, machine, options, work, seed++));
    }
  }
  return results;
}

}  // namespace gpuprof::predict
