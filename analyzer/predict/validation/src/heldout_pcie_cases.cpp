#include "gpuprof/predict/heldout_pcie_cases.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "case_band.hpp"
#include "case_traces.hpp"
#include "csv_table.hpp"
#include "gpuprof/predict/link_choice.hpp"
#include "gpuprof/predict/step_variability.hpp"
#include "gpuprof/predict/sync_model.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/units/number_list.hpp"

namespace gpuprof::predict {
namespace {

constexpr const char* kFamily = "heldout-pcie";
// The pages print the ratio to one GPU with 2 or 3 decimals, and one of them (RTX 4090, resnet50 at 512 on 4
// GPUs) 3.740 for 3.738: a transcription is wrong when it is further off than this.
constexpr double kRatioTolerance = 0.005;

bool is_throughput(const std::string& unit) { return unit == "images/s" || unit == "samples/s"; }
bool is_time(const std::string& unit) { return unit == "minutes per run" || unit == "hours per run"; }

struct Run {
  CsvRow cells;
  std::size_t line = 0;
  std::int32_t gpus = 0;
  double value = 0;  // throughput, or time per run (is_time)
  std::int64_t parameters = 0, batch = 0;  // batch 0: not stated
  std::optional<SyncStrategy> sync;
  std::string key() const {
    return fmt::format("{}|{}|{}|{}|{}", cells.at("source"), cells.at("gpu_name"), cells.at("model"),
                       cells.at("precision"), cells.at("batch_per_gpu"));
  }
};

[[noreturn]] void malformed(const std::string& path, std::size_t line, const std::string& why) {
  throw TraceError::bad_input(path, fmt::format("line {}: {}", line, why));
}

std::int64_t whole_number(const std::string& path, std::size_t line, const std::string& column,
                          const std::string& text, std::int64_t low, std::int64_t high) {
  const auto values = units::parse_number_list(text);  // one whole number is a list of one
  if (!values || values->size() != 1 || values->front() < low || values->front() > high)
    malformed(path, line, fmt::format("{} '{}' is not a whole number from {} to {}", column, text, low, high));
  return values->front();
}

double positive_figure(const std::string& path, std::size_t line, const std::string& column, const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::logic_error&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || !std::isfinite(value) || value <= 0)
    malformed(path, line, fmt::format("{} '{}' is not a positive number", column, text));
  return value;
}

bool is_date(const std::string& text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (i != 4 && i != 7 && (text[i] < '0' || text[i] > '9')) return false;
  return true;
}

Run read_run(const std::string& path, const CsvRow& cells, std::size_t line) {
  static const std::vector<std::string> columns = {"source", "read_on", "machine", "gpu_name", "gpus", "framework",
                                                   "sync", "sync_basis", "model", "parameters", "parameters_basis",
                                                   "precision", "batch_per_gpu", "throughput", "unit",
                                                   "ratio_as_printed"};
  for (const auto& column : columns)
    if (!cells.contains(column)) malformed(path, line, fmt::format("no '{}' column", column));
  Run run{cells, line};
  if (!cells.at("source").starts_with("https://")) malformed(path, line, "source is not a page's https:// address");
  if (!is_date(cells.at("read_on"))) malformed(path, line, "read_on is not a date YYYY-MM-DD");
  for (const auto* column : {"gpu_name", "model", "machine", "parameters_basis", "sync_basis"})
    if (cells.at(column).empty()) malformed(path, line, fmt::format("{} is empty", column));
  const auto& unit = cells.at("unit");
  if (!is_throughput(unit) && !is_time(unit))
    malformed(path, line, fmt::format("unit '{}' is none of images/s, samples/s, minutes per run, hours per run", unit));
  run.gpus = static_cast<std::int32_t>(whole_number(path, line, "gpus", cells.at("gpus"), 1, 65536));
  run.value = positive_figure(path, line, "throughput", cells.at("throughput"));
  run.parameters = whole_number(path, line, "parameters", cells.at("parameters"), 1, 1'000'000'000'000);
  if (!cells.at("batch_per_gpu").empty())
    run.batch = whole_number(path, line, "batch_per_gpu", cells.at("batch_per_gpu"), 1, 1'000'000);
  if (!cells.at("sync").empty()) {
    try {
      run.sync = parse_sync(cells.at("sync"), "sync");
    } catch (const TraceError&) {
      malformed(path, line, fmt::format("sync '{}' is none of {}", cells.at("sync"), fmt::join(sync_names(), ", ")));
    }
  }
  if (run.gpus > 1) positive_figure(path, line, "ratio_as_printed", cells.at("ratio_as_printed"));
  return run;
}

// The file's rows, checked: every field, one 1-GPU row per configuration at most, no duplicate run, and each
// printed ratio to one GPU within kRatioTolerance of the transcribed figures.
std::vector<Run> read_runs(const std::string& path) {
  std::vector<Run> runs;
  const auto table = read_csv_table(path);
  for (std::size_t i = 0; i < table.size(); ++i) runs.push_back(read_run(path, table[i], i + 2));
  std::map<std::string, const Run*> one_gpu;
  std::set<std::string> seen;
  for (const auto& run : runs) {
    if (!seen.insert(fmt::format("{}|{}", run.key(), run.gpus)).second)
      malformed(path, run.line, "the same configuration and GPU count twice");
    if (run.gpus == 1) one_gpu.emplace(run.key(), &run);
  }
  for (const auto& run : runs) {
    const auto one = one_gpu.find(run.key());
    if (run.gpus == 1 || one == one_gpu.end()) continue;
    const double ratio = is_time(run.cells.at("unit")) ? one->second->value / run.value : run.value / one->second->value;
    if (std::abs(ratio - std::stod(run.cells.at("ratio_as_printed"))) > kRatioTolerance)
      malformed(path, run.line,
                fmt::format("ratio_as_printed {} but the figures give {:.3f}", run.cells.at("ratio_as_printed"), ratio));
  }
  return runs;
}

// Why a row cannot be predicted from its source (empty: it can).
std::string reason_not_checkable(const Run& run, const Run* one, const std::string& preset,
                                 std::int64_t assumed_batch) {
  if (!is_throughput(run.cells.at("unit"))) return "a time per training run, with no batch or step count: no step";
  if (run.batch == 0 && assumed_batch == 0)
    return "no per-GPU batch stated: the 1-GPU step (batch / throughput) is unknown";
  if (one == nullptr) return "no 1-GPU run of the same configuration";
  if (preset.empty()) return fmt::format("the CLI has no preset for '{}'", run.cells.at("gpu_name"));
  return {};
}

// "NVIDIA GeForce RTX 4090" -> "RTX 4090".
std::string short_gpu_name(const Run& run) {
  const auto& name = run.cells.at("gpu_name");
  const auto rtx = name.find("RTX");
  return rtx == std::string::npos ? name : name.substr(rtx);
}

// TF 1.x (tf_cnn_benchmarks) exchanges after backward, as the Rossum tf_cnn rows are predicted; others: the CLI's.
AllReduceSchedule schedule_of(const Run& run) {
  const auto& framework = run.cells.at("framework");
  return framework.find("tf_cnn") != std::string::npos || framework.find("TF1") != std::string::npos
             ? AllReduceSchedule::after_backward
             : AllReduceSchedule::bucketed;
}

CaseResult predict_run(Run run, const Run& one, const std::string& preset, const HeldOutPcieOptions& held_out,
                       const std::string& work, std::uint64_t seed) {
  const bool assumed = run.batch == 0;
  if (assumed) run.batch = held_out.assumed_batch;
  const auto trace = fmt::format("{}/heldout_pcie_{}.sqlite", work, seed);
  write_step_trace(trace, static_cast<double>(run.batch) / one.value * 1e9, seed);
  PredictOptions options;
  options.gpus = {run.gpus};
  options.schedule = schedule_of(run);
  options.link = link_preset(preset);
  if (held_out.with_stated_sync) options.sync = run.sync;
  // Gradients exchanged in fp32: tf_cnn_benchmarks' --use_fp16 keeps fp32 variables unless --fp16_vars.
  options.gradient_bytes = run.parameters * 4;
  options.stated_step_spread = kStatedStepVariability;  // synth's jitter is not a measurement
  const auto prediction = predict_files(trace, std::nullopt, options);
  const auto& p = prediction.rows.front();
  const double per_step = run.gpus * one.value * prediction.measured_step_ns;  // weak scaling: same per-GPU batch
  CaseResult result{kFamily,
                    fmt::format("{} {} {} b{}/GPU{}, {} GPUs", short_gpu_name(run), run.cells.at("model"),
                                run.cells.at("precision"), run.batch, assumed ? " (assumed)" : "", run.gpus),
                    per_step / p.step_ns,
                    run.value,
                    per_step / p.high_ns,
                    per_step / p.low_ns,
                    run.cells.at("unit")};
  set_step_band(result, p, per_step / run.value);
  result.note = preset;
  result.source = run.cells.at("source");
  result.one_gpu = one.value, result.gpus = run.gpus;
  result.over_pcie = options.link.over_pcie;
  set_verdict(result, one.value);
  return result;
}

}  // namespace

bool is_heldout_pcie_row(const CaseResult& row) { return row.family == kFamily; }

HeldOutPcieCheck run_heldout_pcie_cases(const std::string& path, const std::string& work,
                                        const HeldOutPcieOptions& options) {
  const auto runs = read_runs(path);
  std::map<std::string, const Run*> one_gpu;
  for (const auto& run : runs)
    if (run.gpus == 1) one_gpu.emplace(run.key(), &run);
  HeldOutPcieCheck check;
  std::uint64_t seed = 1300;
  for (const auto& run : runs) {
    if (run.gpus == 1) {
      ++check.one_gpu_rows;
      continue;
    }
    ++check.data_rows;
    const auto found = one_gpu.find(run.key());
    const Run* one = found == one_gpu.end() ? nullptr : found->second;
    const auto preset = preset_for_gpu_name(run.cells.at("gpu_name"));
    if (const auto why = reason_not_checkable(run, one, preset, options.assumed_batch); !why.empty()) {
      check.not_checkable.push_back(fmt::format("{} {} on {} GPUs: {}", run.cells.at("source"), run.cells.at("model"),
                                                run.gpus, why));
      continue;
    }
    check.rows.push_back(predict_run(run, *one, preset, options, work, seed++));
  }
  return check;
}

}  // namespace gpuprof::predict
