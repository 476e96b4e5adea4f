#pragma once

// `gpuprof predict` inside a study (issue 29): each 1-GPU configuration's trace
// predicts the N-GPU run at the same global batch (strong scaling: the per-GPU
// work is the 1-GPU run at batch/N when the sweep has one, else every kernel
// × 1/N, "optimistic"), beside the measured N-GPU run when the sweep has it,
// with the error; and the break-even batch of the predicted N-GPU times.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/study/scaling_fit.hpp"
#include "gpuprof/study/study_data.hpp"

namespace gpuprof::study {

struct ConfigurationRow;

// `study --predict-*`: the options of `gpuprof predict` under the same names with a `predict-` prefix, read
// and checked by predict::options_of (the same checks, and errors that name the study's options).
struct PredictionSettings {
  bool enabled = false;                      // any --predict-* option was given
  std::string link;                          // a `gpuprof predict` link preset; empty: chosen from the trace's GPU
  std::string strategy = "data-parallel";    // data-parallel or host-staged
  std::string gpus;                          // as typed ("2,4,8"); empty: the sweep's GPU counts above 1, else 2
  std::optional<std::int64_t> gradient_bytes;  // when the traces do not state it
  std::string sync, topology;                  // --predict-sync, --predict-topology; empty: predict's defaults
};

struct PredictedRow {
  std::int64_t batch = 0, gpus = 2;
  bool measured_per_gpu_work = false;  // the 1-GPU run at batch/N gave the per-GPU work
  double speedup = 0, low = 0, high = 0;  // against the 1-GPU run at this batch; low/high from the band
  std::optional<double> measured_speedup;  // the swept N-GPU run at this batch
  std::optional<double> error() const {
    if (!measured_speedup || *measured_speedup <= 0) return std::nullopt;
    return speedup / *measured_speedup - 1.0;
  }
};

struct PredictedBreakEven {
  std::int64_t gpus = 2;
  BreakEven point;
};

struct StudyPredictions {
  std::string link, strategy;
  std::vector<PredictedRow> rows;
  std::vector<PredictedBreakEven> break_evens;  // from the 1-GPU line and the predicted N-GPU times
};

// Problems (a run without a trace, a trace predict refuses) go to `notices` and leave that row out; a bad
// option, or no row predicted at all, throws TraceError::bad_input (the latter naming the study and the
// first reason).
std::optional<StudyPredictions> predict_study(const StudyData& data, const std::vector<ConfigurationRow>& rows,
                                              const std::string& study_dir, const PredictionSettings& settings,
                                              std::vector<std::string>& notices);

}  // namespace gpuprof::study
