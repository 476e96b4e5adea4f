#pragma once

// No-skill baselines beside every accuracy figure of the validation (issue 37): a prediction is worth
// something only where it beats them on the same rows.
//   linear:   N GPUs give N times the 1-GPU throughput;
//   constant: N GPUs give N times the 1-GPU throughput times one efficiency, fitted (the median) on the
//             rows of the other sources only: leave one source out, never in-sample.

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "gpuprof/predict/case_validation.hpp"

namespace gpuprof::predict {

struct MethodScore {
  std::size_t rows = 0, within_10 = 0, verdict_right = 0;
  std::size_t uncertain = 0;  // verdicts the band leaves open (straddling 1x): neither right nor wrong
  double median_error = 0;  // of |predicted / measured - 1|
  double share_within() const { return rows ? static_cast<double>(within_10) / static_cast<double>(rows) : 0.0; }
};

struct BaselineRows {
  MethodScore predict, linear, constant;
};

struct BaselineComparison {
  BaselineRows all;
  BaselineRows low_efficiency;  // rows whose measured efficiency is below kLowEfficiency
  BaselineRows no_faster;       // rows where N GPUs were no faster than one
};

inline constexpr double kLowEfficiency = 0.85;

// Which rows a comparison scores; each scored row's constant efficiency is still fitted on all the rows of the
// other sources (a new log checked on its own, with the baselines it gets among the others).
using RowFilter = std::function<bool(const CaseResult&)>;

// Rows with `one_gpu` and `gpus` set (the published cases). The verdict is "N GPUs faster than one"; predict's
// is decided by its band (CaseResult::uncertain), the baselines' by their figure. Scores the rows `scored`
// picks (all when empty). `fitted_on`: the rows the constant may be fitted on (all when empty; a held-out check
// fits it on the calibration rows only, never on its own rows).
BaselineComparison compare_with_baselines(const std::vector<CaseResult>& rows, const RowFilter& scored = {},
                                          const RowFilter& fitted_on = {});

// The constant efficiency the rows of every source but `held_out` give (their median), of those `fitted_on` picks.
double fitted_efficiency(const std::vector<CaseResult>& rows, const std::string& held_out,
                         const RowFilter& fitted_on = {});

}  // namespace gpuprof::predict
