#include "gpuprof/study/study_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "gpuprof/progress/stage_counter.hpp"

namespace gpuprof::study {
namespace {

struct OkRun {
  const RunRecord* run;
  const RunResult* result;
};

std::vector<OkRun> ok_runs(const StudyData& data, const std::string& name, RunKind kind) {
  std::vector<OkRun> runs;
  for (const auto& run : data.runs) {
    if (run.configuration != name || run.kind != kind || run.status != RunStatus::ok) continue;
    const auto found = data.results.find(run.id);
    if (found != data.results.end()) runs.push_back({&run, &found->second});
  }
  return runs;
}

// Step times compare configurations that run different step counts (epochs at
// different batch sizes); run times only compare runs of the same step count.
bool every_run_has_step_time(const StudyData& data) {
  for (const auto& run : data.runs) {
    if (run.kind != RunKind::profiled || run.status != RunStatus::ok) continue;
    const auto found = data.results.find(run.id);
    if (found != data.results.end() && !found->second.seconds_per_step) return false;
  }
  return true;
}

double comparable_time(const RunResult& result, bool step_basis) {
  return step_basis ? *result.seconds_per_step : result.time_seconds;
}

template <typename Field>
std::optional<Spread> spread_over(const std::vector<OkRun>& runs, Field field) {
  std::vector<double> values;
  for (const auto& run : runs) {
    if (const std::optional<double> value = field(*run.result)) values.push_back(*value);
  }
  return spread_of(values);
}

ConfigurationRow row_for(const StudyData& data, const Configuration& configuration) {
  ConfigurationRow row;
  row.configuration = configuration;
  row.model = configuration.workload.empty() ? "command" : configuration.workload;
  const auto name = configuration.name();
  for (const auto& run : data.runs) {
    if (run.configuration == name && run.kind == RunKind::profiled && run.status == RunStatus::failed) {
      ++row.runs_failed;
    }
  }
  const auto runs = ok_runs(data, name, RunKind::profiled);
  row.runs_ok = runs.size();
  if (runs.empty()) return row;
  const auto& first = runs.front().result->summary;
  if (first.model) row.model = *first.model;
  row.epochs = first.epochs;
  row.steps = first.steps;
  row.accuracy = spread_over(runs, [](const RunResult& r) { return r.summary.accuracy; });
  row.validation_accuracy = spread_over(runs, [](const RunResult& r) { return r.summary.validation_accuracy; });
  row.time_seconds = spread_over(runs, [](const RunResult& r) { return std::optional<double>(r.time_seconds); });
  row.seconds_per_step = spread_over(runs, [](const RunResult& r) { return r.seconds_per_step; });
  row.samples_per_second = spread_over(runs, [](const RunResult& r) { return r.summary.samples_per_second; });
  const auto calibration = ok_runs(data, name, RunKind::calibration);
  if (!calibration.empty() && calibration.front().result->time_seconds > 0) {
    row.calibration_seconds = calibration.front().result->time_seconds;
    row.overhead = row.time_seconds->mean / *row.calibration_seconds - 1.0;
  }
  return row;
}

const Configuration* single_gpu_counterpart(const StudyData& data, const Configuration& configuration) {
  for (const auto& other : data.configurations) {
    if (other.gpus == 1 && other.batch == configuration.batch && other.workload == configuration.workload) {
      return &other;
    }
  }
  return nullptr;
}

void add_speedup(const StudyData& data, bool step_basis, ConfigurationRow& row) {
  const auto* base = single_gpu_counterpart(data, row.configuration);
  if (base == nullptr) return;
  const auto base_runs = ok_runs(data, base->name(), RunKind::profiled);
  const auto runs = ok_runs(data, row.configuration.name(), RunKind::profiled);
  if (base_runs.empty() || runs.empty()) return;
  double base_time = 0;
  for (const auto& run : base_runs) base_time += comparable_time(*run.result, step_basis);
  base_time /= static_cast<double>(base_runs.size());
  std::vector<double> speedups;
  for (const auto& run : runs) {
    const double time = comparable_time(*run.result, step_basis);
    if (time > 0) speedups.push_back(base_time / time);
  }
  row.speedup = spread_of(speedups);
}

std::map<std::int64_t, std::vector<TimePoint>> points_by_gpus(const StudyData& data, bool step_basis) {
  std::map<std::int64_t, std::vector<TimePoint>> points;
  for (const auto& configuration : data.configurations) {
    for (const auto& run : ok_runs(data, configuration.name(), RunKind::profiled)) {
      points[configuration.gpus].push_back(
          {static_cast<double>(configuration.batch), comparable_time(*run.result, step_basis)});
    }
  }
  return points;
}

std::pair<double, double> common_batch_range(const std::vector<TimePoint>& one, const std::vector<TimePoint>& many) {
  std::set<double> batches_one;
  for (const auto& point : one) batches_one.insert(point.batch);
  double low = kInfinity, high = 0;
  for (const auto& point : many) {
    if (!batches_one.count(point.batch)) continue;
    low = std::min(low, point.batch);
    high = std::max(high, point.batch);
  }
  return {low == kInfinity ? 0 : low, high};
}

void add_fits(const StudyData& data, bool step_basis, StudyReport& report) {
  const auto points = points_by_gpus(data, step_basis);
  for (const auto& [gpus, series] : points) report.fits.push_back({gpus, fit_line(series)});
  const auto one = points.find(1);
  if (one == points.end()) return;
  const auto fit_one = fit_line(one->second);
  for (const auto& [gpus, series] : points) {
    if (gpus == 1) continue;
    const auto fit_many = fit_line(series);
    if (!fit_one.valid || !fit_many.valid) {
      report.notices.push_back(fmt::format("no break-even for {} GPUs: a line needs runs at two batch sizes", gpus));
      continue;
    }
    BreakEvenRow row;
    row.gpus = gpus;
    row.point = solve_break_even(fit_one, fit_many);
    row.interval = bootstrap_break_even(one->second, series);
    std::tie(row.measured_low, row.measured_high) = common_batch_range(one->second, series);
    report.break_evens.push_back(row);
  }
}

void add_failures(const StudyData& data, StudyReport& report) {
  for (const auto& run : data.runs) {
    if (run.status == RunStatus::ok) continue;
    report.failures.push_back({run.configuration, run.repeat, run.kind, run.status, run.exit_code,
                               run.status == RunStatus::running ? "interrupted (run gpuprof sweep --resume)" : run.error});
  }
}

std::string title_of(const StudyData& data) {
  const auto value = [&](const char* key) {
    const auto found = data.meta.find(key);
    return found == data.meta.end() ? std::string() : found->second;
  };
  const auto what = value("workload").empty() ? "'" + value("command") + "'" : value("workload");
  const auto title = fmt::format("Scaling study: {}, {}", what, value("strategy"));
  return value("synthetic").empty() ? title : "SYNTHETIC " + title + " (gpuprof synth traces, not measurements)";
}

}  // namespace

std::optional<Spread> spread_of(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  Spread spread;
  spread.n = values.size();
  for (const double value : values) spread.mean += value;
  spread.mean /= static_cast<double>(values.size());
  if (values.size() > 1) {
    double squares = 0;
    for (const double value : values) squares += (value - spread.mean) * (value - spread.mean);
    spread.sd = std::sqrt(squares / static_cast<double>(values.size() - 1));
  }
  return spread;
}

bool BreakEvenRow::extrapolated() const {
  if (point.kind != BreakEvenKind::breaks_even && point.kind != BreakEvenKind::faster_below) return false;
  return point.batch < measured_low || point.batch > measured_high;
}

StudyReport build_study_report(const StudyData& data, const std::map<std::string, BreakdownTotals>& breakdowns) {
  StudyReport report;
  report.title = title_of(data);
  const auto synthetic = data.meta.find("synthetic");
  report.synthetic = synthetic != data.meta.end() && !synthetic->second.empty();
  const bool step_basis = every_run_has_step_time(data);
  report.time_basis = step_basis ? "step" : "run";
  if (!step_basis) {
    report.notices.push_back(
        "some runs report no step count: speedups and fits use whole-run times, which compare only runs of the "
        "same number of steps (use --steps)");
  }
  for (const auto& configuration : data.configurations) {
    auto row = row_for(data, configuration);
    if (configuration.gpus > 1) add_speedup(data, step_basis, row);
    if (const auto found = breakdowns.find(configuration.name()); found != breakdowns.end()) {
      row.breakdown = found->second;
    }
    report.rows.push_back(std::move(row));
  }
  add_fits(data, step_basis, report);
  add_failures(data, report);
  return report;
}

std::map<std::string, BreakdownTotals> breakdowns_of_study(const StudyData& data, const std::string& study_dir,
                                                           std::vector<std::string>& notices,
                                                           const progress::ProgressCallback& progress) {
  std::vector<std::pair<std::string, std::vector<std::string>>> traces;  // per configuration
  std::int64_t count = 0;
  for (const auto& configuration : data.configurations) {
    std::vector<std::string> paths;
    for (const auto& run : ok_runs(data, configuration.name(), RunKind::profiled)) {
      for (const auto& trace : run.run->trace_paths) paths.push_back((std::filesystem::path(study_dir) / trace).string());
    }
    count += static_cast<std::int64_t>(paths.size());
    if (!paths.empty()) traces.emplace_back(configuration.name(), std::move(paths));
  }
  progress::StageCounter analysed(progress, "analyse", count, "traces");
  analysed.add(0);
  std::map<std::string, BreakdownTotals> breakdowns;
  for (const auto& [name, paths] : traces) {
    auto result = breakdown_of_traces(paths, analysed.active() ? &analysed : nullptr);
    for (auto& problem : result.problems) notices.push_back(std::move(problem));
    if (result.totals.traces > 0) breakdowns[name] = result.totals;
  }
  return breakdowns;
}

}  // namespace gpuprof::study
