#include "gpuprof/predict/baselines.hpp"

#include <algorithm>
#include <cmath>

#include "gpuprof/units/statistics.hpp"

namespace gpuprof::predict {
namespace {

double measured_efficiency(const CaseResult& row) { return row.measured / (row.gpus * row.one_gpu); }

struct Scorer {
  MethodScore score;
  std::vector<double> errors;

  // `uncertain`: the method's band straddles one GPU's figure (predict only): not right, counted apart.
  void add(double predicted, const CaseResult& row, bool uncertain = false) {
    const double error = std::abs(predicted / row.measured - 1.0);
    ++score.rows;
    score.within_10 += error <= 0.10;
    score.uncertain += uncertain;
    score.verdict_right += !uncertain && (predicted > row.one_gpu) == (row.measured > row.one_gpu);
    errors.push_back(error);
  }
  MethodScore done() {
    score.median_error = units::median(errors);
    return score;
  }
};

struct RowsScorer {
  Scorer predict, linear, constant;
  void add(const CaseResult& row, double constant_efficiency) {
    predict.add(row.predicted, row, row.uncertain);
    linear.add(row.gpus * row.one_gpu, row);
    constant.add(row.gpus * row.one_gpu * constant_efficiency, row);
  }
  BaselineRows done() { return {predict.done(), linear.done(), constant.done()}; }
};

}  // namespace

double fitted_efficiency(const std::vector<CaseResult>& rows, const std::string& held_out, const RowFilter& fitted_on) {
  std::vector<double> efficiencies;
  for (const auto& row : rows)
    if (row.source != held_out && row.one_gpu > 0 && row.gpus > 0 && (!fitted_on || fitted_on(row)))
      efficiencies.push_back(measured_efficiency(row));
  return efficiencies.empty() ? 1.0 : units::median(efficiencies);
}

BaselineComparison compare_with_baselines(const std::vector<CaseResult>& rows, const RowFilter& scored,
                                          const RowFilter& fitted_on) {
  RowsScorer all, low, no_faster;
  for (const auto& row : rows) {
    if (row.one_gpu <= 0 || row.gpus <= 0 || row.measured <= 0 || (scored && !scored(row))) continue;
    const double constant = fitted_efficiency(rows, row.source, fitted_on);
    all.add(row, constant);
    if (measured_efficiency(row) < kLowEfficiency) low.add(row, constant);
    if (row.measured <= row.one_gpu) no_faster.add(row, constant);
  }
  return {all.done(), low.done(), no_faster.done()};
}

}  // namespace gpuprof::predict
