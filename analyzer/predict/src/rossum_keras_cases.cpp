#include <fmt/format.h>

#include <fstream>
#include <map>
#include <optional>
#include <tuple>

#include "case_band.hpp"
#include "case_traces.hpp"
#include "gpuprof/predict/case_validation.hpp"
#include "gpuprof/trace/trace_error.hpp"

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

// One run of the log: the settings it prints before training and its last `Samples/sec` line.
struct KerasRun {
  std::string architecture, server, method;
  std::int32_t gpus = 0;
  std::int64_t batch = 0, parameters = 0;
  std::optional<double> throughput;  // none: the run failed
};

std::optional<std::string> value_after(const std::string& line, std::string_view key) {
  if (!line.starts_with(key)) return std::nullopt;
  return line.substr(key.size());
}

std::vector<KerasRun> read_keras_log(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TraceError::bad_input(path, "cannot read the Rossum Keras benchmark log");
  std::vector<KerasRun> runs;
  for (std::string line; std::getline(in, line);) {
    if (const auto v = value_after(line, "architecture: ")) runs.push_back({*v, "", "", 0, 0, 0, std::nullopt});
    if (runs.empty()) continue;
    auto& run = runs.back();
    try {
      if (const auto v = value_after(line, "number of GPUs: ")) run.gpus = std::stoi(*v);
      if (const auto v = value_after(line, "parameter server: ")) run.server = *v;
      if (const auto v = value_after(line, "parallelization method: ")) run.method = *v;
      if (const auto v = value_after(line, "batch_size: ")) run.batch = std::stoll(*v);
      if (const auto v = value_after(line, "Number of parameters: ")) run.parameters = std::stoll(*v);
      if (const auto v = value_after(line, "Samples/sec: ")) run.throughput = std::stod(*v);
    } catch (const std::exception&) {
      throw TraceError::bad_input(path, fmt::format("unreadable value in '{}'", line));
    }
  }
  return runs;
}

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
