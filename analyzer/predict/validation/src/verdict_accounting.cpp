#include "gpuprof/predict/verdict_accounting.hpp"

#include "gpuprof/predict/baselines.hpp"
#include "gpuprof/predict/verdict_lean.hpp"

namespace gpuprof::predict {
namespace {

// A figure's side of one GPU against the measured side: "faster" as set_verdict and the baselines decide it.
void add_side(SideCounts& counts, double figure, const CaseResult& row) {
  const bool right = (figure > row.one_gpu) == (row.measured > row.one_gpu);
  ++(right ? counts.right : counts.wrong);
}

void add_lean(SideCounts& counts, Lean lean, const CaseResult& row) {
  if (lean == Lean::too_close) {
    ++counts.too_close;
    return;
  }
  const bool right = (lean == Lean::faster) == (row.measured > row.one_gpu);
  ++(right ? counts.right : counts.wrong);
}

void add_row(VerdictAccount& account, const CaseResult& row, double variability, double constant_efficiency) {
  ++account.rows;
  if (row.uncertain) {
    ++account.band_uncertain;
    add_lean(account.lean_of_uncertain, lean_of(row.predicted / row.one_gpu, variability), row);
  } else {
    ++(row.verdict_right ? account.band_right : account.band_wrong);
  }
  add_side(account.centre, row.predicted, row);
  add_side(account.linear, row.gpus * row.one_gpu, row);
  add_side(account.constant, row.gpus * row.one_gpu * constant_efficiency, row);
}

SideCounts& operator+=(SideCounts& total, const SideCounts& part) {
  total.right += part.right, total.wrong += part.wrong, total.too_close += part.too_close;
  return total;
}

VerdictAccount& operator+=(VerdictAccount& total, const VerdictAccount& part) {
  total.rows += part.rows;
  total.band_right += part.band_right, total.band_uncertain += part.band_uncertain;
  total.band_wrong += part.band_wrong;
  total.lean_of_uncertain += part.lean_of_uncertain;
  total.centre += part.centre, total.linear += part.linear, total.constant += part.constant;
  return total;
}

}  // namespace

VerdictAccounting account_verdicts(const std::vector<CaseResult>& rows, double variability, const RowFilter& scored,
                                   const RowFilter& fitted_on) {
  VerdictAccounting result;
  for (const auto& row : rows) {
    if (row.one_gpu <= 0 || row.gpus <= 0 || row.measured <= 0 || (scored && !scored(row))) continue;
    const double constant = fitted_efficiency(rows, row.source, fitted_on);
    add_row(result.all, row, variability, constant);
    if (row.measured <= row.one_gpu) add_row(result.no_faster, row, variability, constant);
  }
  return result;
}

VerdictAccounting& operator+=(VerdictAccounting& total, const VerdictAccounting& part) {
  total.all += part.all;
  total.no_faster += part.no_faster;
  return total;
}

}  // namespace gpuprof::predict
