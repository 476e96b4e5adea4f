#include <fmt/format.h>

#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "case_band.hpp"
#include "case_traces.hpp"
#include "gpuprof/predict/case_validation.hpp"
#include "gpuprof/predict/layer_parameters.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "rossum_logs.hpp"

namespace gpuprof::predict {
namespace {

constexpr const char* kRoot = "/rossum-keras-multi-gpu/";
constexpr const char* kResults = "experiments/tensorflow/tf_cnn_benchmarks/results/";

// tf_cnn_benchmarks' variable modes as synchronisations (sync_model.hpp): a parameter server on its local
// parameter device; replicated with NCCL a ring all-reduce; replicated without NCCL each GPU copies every other
// GPU's gradients through its own link, for 2 GPUs the bytes of ps-gpu. Independent runs do not synchronise.
std::optional<SyncStrategy> sync_of(const TfCnnRun& run) {
  if (run.variable_update == "parameter_server")
    return run.parameter_device == "cpu" ? SyncStrategy::ps_cpu : SyncStrategy::ps_gpu;
  if (run.variable_update == "replicated") return run.nccl ? SyncStrategy::ring_allreduce : SyncStrategy::ps_gpu;
  return std::nullopt;
}

std::string sync_label(const TfCnnRun& run) {
  if (run.variable_update == "replicated") return run.nccl ? "replicated, NCCL" : "replicated, no NCCL";
  return fmt::format("PS {}", run.parameter_device);
}

// az-4x-m60.tsv: one tf_cnn_benchmarks run per row, with a header naming the columns.
std::vector<TfCnnRun> read_tsv_runs(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw TraceError::bad_input(path, "cannot read the Rossum tf_cnn_benchmarks table");
  std::vector<std::string> header;
  std::vector<TfCnnRun> runs;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::istringstream fields(line);
    for (std::string cell; std::getline(fields, cell, '\t');) cells.push_back(cell);
    if (header.empty()) {
      header = cells;
      continue;
    }
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < cells.size() && c < header.size(); ++c) row[header[c]] = cells[c];
    try {
      TfCnnRun run;
      run.model = row["model"], run.parameter_device = row["local_parameter_device"];
      run.variable_update = row["variable_update"], run.nccl = row["use_nccl"] == "TRUE";
      run.data_format = row["data_format"], run.gpus = std::stoi(row["num_gpus"]);
      run.batch = std::stoll(row["local batch size"]), run.throughput = std::stod(row["total images/sec"]);
      runs.push_back(run);
    } catch (const std::logic_error&) {
      throw TraceError::bad_input(path, fmt::format("unreadable row '{}'", line));
    }
  }
  return runs;
}

struct Source {
  const char* machine;
  std::string file;      // under rossum-keras-multi-gpu/
  const char* topology;  // under rossum-keras-multi-gpu/experiments/topology/
  const std::map<std::string, std::int64_t>& parameters;  // --model -> parameters of that log's models
  const char* label;     // in the run's name, to tell a log's models from another's of the same name
};

}  // namespace

std::vector<CaseResult> run_rossum_tf_cnn_cases(const std::string& dir, const std::string& work) {
  // Parameters: measurements.md's CIFAR-10 table; InceptionV3's from the Keras benchmark's own count (the same
  // architecture in tf_cnn_benchmarks, an assumption: its log does not print it).
  auto parameters = read_parameter_table(dir + kRoot + "blog/docs/measurements.md");
  const auto keras_log = "experiments/keras_tensorflow/benchmark_inception3_resnet50_results_az-2x-m60.txt";
  for (const auto& run : read_keras_log(dir + kRoot + keras_log))
    if (run.architecture == "inception3" && run.parameters > 0) parameters["inception3"] = run.parameters;
  // The 22 September log runs the ImageNet models (its `alexnet` is not measurements.md's CIFAR-10 one): their
  // counts from the layer shapes at the benchmark's image sizes (layer_parameters.hpp).
  const auto imagenet = tf_cnn_imagenet_parameters();
  const Source sources[] = {
      {"az-2x-m60", std::string(kResults) + "benchmark_batch_results_cifar10_az-2xm-60.txt", "az-2x-m60.txt",
       parameters, ""},
      {"az-2x-m60", std::string(kResults) + "benchmark_batch_inception3_az-2xm-60.txt", "az-2x-m60.txt", parameters,
       ""},
      {"az-4x-m60", "experiments/keras_tensorflow/az-4x-m60.tsv", "az-4x-m60.txt", parameters, ""},
      {"az-2x-m60", std::string(kResults) + kRossumImageNetLog, "az-2x-m60.txt", imagenet, "ImageNet "},
  };
  std::vector<CaseResult> results;
  std::uint64_t seed = 900;
  for (const auto& source : sources) {
    const auto path = dir + kRoot + source.file;
    const auto runs = source.file.ends_with(".tsv") ? read_tsv_runs(path) : read_tf_cnn_log(path);
    // The 1-GPU run of the same model, data format and per-GPU batch -> images/s.
    std::map<std::tuple<std::string, std::string, std::int64_t>, double> one_gpu;
    std::map<std::tuple<std::string, std::string, std::int32_t>, double> independent;  // ... and GPUs
    for (const auto& run : runs) {
      if (run.gpus == 1 && run.throughput) one_gpu.try_emplace({run.model, run.data_format, run.batch}, *run.throughput);
      if (run.variable_update == "independent" && run.throughput)
        independent.try_emplace({run.model, run.data_format, run.gpus}, *run.throughput);
    }
    PredictOptions options;
    options.schedule = AllReduceSchedule::after_backward;
    options.link = link_preset("pcie3-m60");
    options.topology = read_topology_file(dir + kRoot + "experiments/topology/" + source.topology);
    for (const auto& run : runs) {
      const auto single = one_gpu.find({run.model, run.data_format, run.batch});
      const auto sync = sync_of(run);
      if (run.gpus < 2 || !run.throughput || run.batch < 1 || !sync || !source.parameters.contains(run.model) ||
          single == one_gpu.end())
        continue;
      const auto trace = fmt::format("{}/rossum_tf_{}.sqlite", work, seed);
      write_step_trace(trace, static_cast<double>(run.batch) / single->second * 1e9, seed++);
      options.gpus = {run.gpus};
      options.sync = *sync;
      options.gradient_bytes = source.parameters.at(run.model) * 4;
      const auto prediction = predict_files(trace, std::nullopt, options);
      const auto& p = prediction.rows.front();
      const double per_step = run.gpus * single->second * prediction.measured_step_ns;  // weak scaling
      CaseResult result{"rossum",
                        fmt::format("Rossum {} tf_cnn {}{} b{}/GPU, {} GPUs, {}", source.machine, source.label,
                                    run.model, run.batch, run.gpus, sync_label(run)),
                        per_step / p.step_ns,
                        *run.throughput,
                        per_step / p.high_ns,
                        per_step / p.low_ns,
                        "images/s"};
      set_step_band(result, p, per_step / *run.throughput);
      result.source = "rossumai/keras-multi-gpu " + source.file;
      result.one_gpu = single->second, result.gpus = run.gpus;
      if (const auto alone = independent.find({run.model, run.data_format, run.gpus}); alone != independent.end())
        result.no_exchange = alone->second;
      result.over_pcie = options.link.over_pcie;
      set_verdict(result, single->second);
      results.push_back(result);
    }
  }
  return results;
}

}  // namespace gpuprof::predict
