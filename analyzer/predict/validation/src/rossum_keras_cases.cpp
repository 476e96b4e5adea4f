#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "case_band.hpp"
#include "case_traces.hpp"
#include "gpuprof/predict/case_validation.hpp"
#include "gpuprof/trace/trace_error.hpp"
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
  result.over_pcie = options.link.over_pcie;
  set_verdict(result, single);
  return result;
}

// kuza55's MLP example on az-2x-m60: 131,072 samples an epoch at 2048 per GPU (README of rossum-keras-multi-gpu/).
constexpr const char* kMlpLog = "keras_tensorflow/kuza55/original_examples/az-2x-m60.txt";
constexpr double kMlpSamples = 131'072.0;
constexpr std::int64_t kMlpBatchPerGpu = 2048;
constexpr std::int64_t kMlpParameters = 41'157'101;  // the log's own "Total params"

// A run's epoch time: the median of the epochs after the first (which includes TensorFlow's warm-up).
double steady_epoch(const EpochRun& run) {
  std::vector<double> later(run.epoch_seconds.begin() + 1, run.epoch_seconds.end());
  std::sort(later.begin(), later.end());
  return later[later.size() / 2];
}

}  // namespace

std::vector<CaseResult> run_rossum_mlp_cases(const std::string& dir, const std::string& work) {
  std::vector<EpochRun> complete;  // the runs that finished their 5 epochs; two were stopped after 2
  for (const auto& run : read_epoch_log(dir + kRoot + kMlpLog))
    if (run.epoch_seconds.size() == 5 && run.gpus >= 1) complete.push_back(run);
  double one_gpu_sum = 0;
  int one_gpu_runs = 0;
  for (const auto& run : complete)
    if (run.gpus == 1) one_gpu_sum += kMlpSamples / steady_epoch(run), ++one_gpu_runs;
  if (one_gpu_runs == 0) throw TraceError::bad_input(dir + kRoot + kMlpLog, "no complete 1-GPU run");
  const double single = one_gpu_sum / one_gpu_runs;  // samples/s
  // The log does not say where each run kept its parameters: no --sync, so the centre is a ring all-reduce and the
  // band's slow end covers both parameter servers (pcie3-m60 has no peer access).
  PredictOptions options;
  options.schedule = AllReduceSchedule::after_backward;
  options.link = link_preset("pcie3-m60");
  options.topology = read_topology_file(dir + kRoot + "topology/az-2x-m60.txt");
  options.gradient_bytes = kMlpParameters * 4;
  std::vector<CaseResult> results;
  std::uint64_t seed = 850;
  for (const auto& run : complete) {
    if (run.gpus < 2) continue;
    const auto trace = fmt::format("{}/rossum_mlp_{}.sqlite", work, seed);
    write_step_trace(trace, static_cast<double>(kMlpBatchPerGpu) / single * 1e9, seed++);
    options.gpus = {run.gpus};
    const auto prediction = predict_files(trace, std::nullopt, options);
    const auto& p = prediction.rows.front();
    const double per_step = run.gpus * single * prediction.measured_step_ns;  // weak scaling
    const double measured = kMlpSamples / steady_epoch(run);
    CaseResult result{"rossum", fmt::format("Rossum az-2x-m60 Keras kuza55 MLP b2048/GPU, {} GPUs, PS not logged",
                                            run.gpus),
                      per_step / p.step_ns, measured, per_step / p.high_ns, per_step / p.low_ns, "samples/s"};
    set_step_band(result, p, per_step / measured);
    result.source = std::string("rossumai/keras-multi-gpu ") + kMlpLog;
    result.one_gpu = single, result.gpus = run.gpus;
    result.over_pcie = options.link.over_pcie;
    set_verdict(result, single);
    results.push_back(result);
  }
  return results;
}

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
