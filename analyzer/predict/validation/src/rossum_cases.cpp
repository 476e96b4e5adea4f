#include <fmt/format.h>

#include <fstream>
#include <map>
#include <sstream>

#include "case_band.hpp"
#include "case_traces.hpp"
#include "gpuprof/predict/case_validation.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

// avolkov1's Keras CIFAR-10 CNN on 7gforce (GTX 1070s on PCIe x1 extenders, two PIX groups joined through
// PHB), 1 to 6 GPUs at 32, 512 and 4096 samples per GPU: `samples/sec` per row (README of
// rossum-keras-multi-gpu/, "Which file holds which measurement").
constexpr const char* kCifarFile = "/rossum-keras-multi-gpu/experiments/keras_tensorflow/avolkov1/cifar10/"
                                   "cifar10_7gforce_results.csv";
// measurements.md gives the model as 1.25M parameters: fp32 gradients.
constexpr double kCifarParameters = 1.25e6;
constexpr const char* kTopology7gforce = "/rossum-keras-multi-gpu/experiments/topology/7gforce.txt";
// CIFAR-10's training set: `samples/sec` is an epoch of it over the epoch's time, in ⌈50,000 / (batch·N)⌉ steps.
constexpr std::int64_t kCifarTrainingImages = 50'000;

std::int64_t steps_per_epoch(std::int64_t batch_per_gpu, std::int32_t gpus) {
  const auto global = batch_per_gpu * gpus;
  return (kCifarTrainingImages + global - 1) / global;
}

struct CifarRow {
  std::string gpus_list;
  std::int32_t gpus = 0;
  std::int64_t batch = 0;
  bool nccl = false;
  double throughput = 0;
};

std::vector<CifarRow> read_cifar(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TraceError::bad_input(path, "cannot read the Rossum CIFAR-10 results");
  std::vector<CifarRow> rows;
  std::string line;
  std::getline(in, line);  // header: gpus gpu_count epochs batch_size nccl samples/sec
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, '\t');) cells.push_back(cell);
    if (cells.size() < 6) continue;
    rows.push_back({cells[0], std::stoi(cells[1]), std::stoll(cells[3]), cells[4] == "TRUE", std::stod(cells[5])});
  }
  return rows;
}

// "0,1,2" -> {0, 1, 2}: the GPUs a run used (CUDA_VISIBLE_DEVICES).
std::vector<std::int32_t> gpu_list(const CifarRow& row) {
  std::vector<std::int32_t> gpus;
  std::stringstream items(row.gpus_list);
  for (std::string item; std::getline(items, item, ',');) gpus.push_back(std::stoi(item));
  return gpus;
}

}  // namespace

std::vector<CaseResult> run_rossum_cases(const std::string& dir, const std::string& work) {
  const auto rows = read_cifar(dir + kCifarFile);
  std::map<std::int64_t, std::pair<double, int>> one_gpu;  // batch -> (sum, count)
  for (const auto& row : rows)
    if (row.gpus == 1) one_gpu[row.batch].first += row.throughput, ++one_gpu[row.batch].second;
  // The machine as its own files give it: the links from its bandwidth tests (the pcie3-x1 preset; no figure
  // of these runs is used), the topology from `nvidia-smi topo -m`. avolkov1's make_parallel keeps the
  // variables on GPU 0 and broadcasts them from there (keras-tensorflow.md: the CIFAR-10 timeline runs with
  // PS=GPU; NCCL only broadcasts), so every other GPU's gradients and parameters pass GPU 0's link: ps-gpu.
  const auto link = link_preset("pcie3-x1");
  const auto topology = read_topology_file(dir + kTopology7gforce);
  std::vector<CaseResult> results;
  std::uint64_t seed = 700;
  for (const auto& row : rows) {
    // Every multi-GPU row, with NCCL or without (then avolkov1's implicit copies from GPU 0: the same ps-gpu
    // bytes), on the GPUs it names; measurements.md tabulates only the NCCL rows on GPUs 0 to N-1.
    const auto gpus = gpu_list(row);
    if (row.gpus < 2 || static_cast<std::int32_t>(gpus.size()) != row.gpus || !one_gpu.contains(row.batch)) continue;
    const double single = one_gpu[row.batch].first / one_gpu[row.batch].second;
    const auto trace = fmt::format("{}/rossum_{}.sqlite", work, seed);
    write_step_trace(trace, static_cast<double>(row.batch) / single * 1e9, seed++);
    PredictOptions options;
    options.gpus = {row.gpus};
    options.schedule = AllReduceSchedule::after_backward;  // Keras 2.0 / TF 1.3: no bucketing
    options.link = link;
    options.sync = SyncStrategy::ps_gpu;
    options.topology = topology.visible(gpus);
    options.gradient_bytes = static_cast<std::int64_t>(kCifarParameters * 4);
    const auto prediction = predict_files(trace, std::nullopt, options);
    const auto& p = prediction.rows.front();
    const double per_step = row.gpus * single * prediction.measured_step_ns;  // weak scaling: batch per GPU
    CaseResult result{"rossum",
                      fmt::format("Rossum 7gforce CIFAR-10 CNN, GPUs {}, b{}/GPU{}", row.gpus_list, row.batch,
                                  row.nccl ? ", NCCL" : ""),
                      per_step / p.step_ns,
                      row.throughput,
                      per_step / p.high_ns,
                      per_step / p.low_ns,
                      "samples/s"};
    set_step_band(result, p, per_step / row.throughput);
    result.source = "rossumai/keras-multi-gpu cifar10_7gforce_results.csv";
    result.one_gpu = single, result.gpus = row.gpus;
    result.over_pcie = link.over_pcie;
    // The predicted step, and the 1-GPU step it is scaled from, each taken ⌈…⌉ times per epoch.
    result.per_epoch_full_steps = result.predicted * static_cast<double>(steps_per_epoch(row.batch, 1)) /
                                  (row.gpus * static_cast<double>(steps_per_epoch(row.batch, row.gpus)));
    set_verdict(result, single);
    results.push_back(result);
  }
  return results;
}

}  // namespace gpuprof::predict
