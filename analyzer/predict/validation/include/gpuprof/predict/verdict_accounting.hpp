#pragma once

// What a user acts on, counted (issue 37): for each set of validation rows, the band's call (right, uncertain,
// wrong: uncertain is never right), the centre's lean where the band is uncertain (right, wrong, too close to
// call), the centre's own side on every row, and the sides of the two no-skill baselines (baselines.hpp) on the
// same rows, so that the margin of each over a guess is visible.

#include <cstddef>
#include <vector>

#include "gpuprof/predict/baselines.hpp"
#include "gpuprof/predict/case_validation.hpp"

namespace gpuprof::predict {

struct SideCounts {
  std::size_t right = 0, wrong = 0;
  std::size_t too_close = 0;  // leans only: the centre within the stated variability of 1x takes no side
};

struct VerdictAccount {
  std::size_t rows = 0;
  std::size_t band_right = 0, band_uncertain = 0, band_wrong = 0;  // the call, decided by the whole band
  SideCounts lean_of_uncertain;  // of the band_uncertain rows: the centre's lean
  SideCounts centre;             // the centre's side of one GPU, every row
  SideCounts linear, constant;   // the baselines' figures' side, every row
  // What a user who follows the call, and the lean where the call is uncertain, gets right and wrong.
  std::size_t acted_right() const { return band_right + lean_of_uncertain.right; }
  std::size_t acted_wrong() const { return band_wrong + lean_of_uncertain.wrong; }
};

struct VerdictAccounting {
  VerdictAccount all;
  VerdictAccount no_faster;  // rows where N GPUs were no faster than one
};

// Throughput rows with `one_gpu`, `gpus` and their band set (band_rows_left_out, set_verdict). `variability`:
// the 1-GPU step's σ over its mean that a lean is judged against (the validation's 1-GPU traces are synthetic,
// so the stated figure, step_variability.hpp). The constant efficiency of a row is fitted on `rows` of the
// other sources (fitted_efficiency) that `fitted_on` picks, as compare_with_baselines fits it. Counts the rows
// `scored` picks (all when empty).
VerdictAccounting account_verdicts(const std::vector<CaseResult>& rows, double variability,
                                   const RowFilter& scored = {}, const RowFilter& fitted_on = {});

// Two sets together, each row scored as in its own set.
VerdictAccounting& operator+=(VerdictAccounting& total, const VerdictAccounting& part);

}  // namespace gpuprof::predict
