#pragma once

// The study report: one row per configuration, the fitted step-time lines and
// the break-even batch sizes. Built from the study file alone (plus the
// breakdowns of its traces), so it can be built from synthetic inputs in tests.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/progress/progress.hpp"
#include "gpuprof/study/scaling_fit.hpp"
#include "gpuprof/study/study_data.hpp"
#include "gpuprof/study/study_predictions.hpp"
#include "gpuprof/study/study_waterfall.hpp"
#include "gpuprof/study/trace_breakdown.hpp"

namespace gpuprof::study {

// Mean and sample standard deviation over repeats (sd 0 with one value).
struct Spread {
  double mean = 0, sd = 0;
  std::size_t n = 0;
};
std::optional<Spread> spread_of(const std::vector<double>& values);

struct ConfigurationRow {
  Configuration configuration;
  std::string model;
  std::optional<std::int64_t> epochs, steps;
  std::size_t runs_ok = 0, runs_failed = 0;
  std::optional<Spread> accuracy, validation_accuracy, time_seconds, seconds_per_step, samples_per_second;
  // Mean 1-GPU time at the same batch divided by each repeat's time.
  std::optional<Spread> speedup;
  std::optional<double> calibration_seconds, overhead;  // overhead: time with collector / without − 1
  std::optional<BreakdownTotals> breakdown;
};

struct FailedRun {
  std::string configuration;
  std::int64_t repeat = 1;
  RunKind kind = RunKind::profiled;
  RunStatus status = RunStatus::failed;
  std::optional<std::int64_t> exit_code;
  std::string error;
};

struct GpuFit {
  std::int64_t gpus = 1;
  LineFit fit;
};

struct BreakEvenRow {
  std::int64_t gpus = 2;
  BreakEven point;
  BreakEvenInterval interval;
  double measured_low = 0, measured_high = 0;  // batch sizes both GPU counts ran
  bool extrapolated() const;
};

struct StudyReport {
  std::string title;
  bool synthetic = false;  // swept with --synthetic: traces from gpuprof synth, not measurements
  std::string time_basis;  // "step" (seconds per step) or "run" (seconds per run)
  std::vector<ConfigurationRow> rows;
  std::vector<FailedRun> failures;
  std::vector<GpuFit> fits;
  std::vector<BreakEvenRow> break_evens;
  std::vector<WaterfallRow> waterfalls;  // filled by the caller (needs the traces)
  std::optional<StudyPredictions> predictions;  // filled by the caller when asked (needs the traces and a link)
  std::vector<std::string> notices;
};

// `breakdowns` by configuration name; configurations without one get no breakdown columns.
StudyReport build_study_report(const StudyData& data, const std::map<std::string, BreakdownTotals>& breakdowns);

// The traces of every successful profiled run of each configuration, analysed.
// Problems (a trace without GPU activity, say) go to `notices`. `progress`:
// stage "analyse", traces done of the study's traces; may be empty.
std::map<std::string, BreakdownTotals> breakdowns_of_study(const StudyData& data, const std::string& study_dir,
                                                           std::vector<std::string>& notices,
                                                           const progress::ProgressCallback& progress = {});

}  // namespace gpuprof::study
