#include "case_band.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace gpuprof::predict {

void set_step_band(CaseResult& result, const GpuCountPrediction& row, double measured_step_ns) {
  result.measured_step_ns = measured_step_ns;
  result.low_step_ns = row.low_ns;
  result.band_high = row.band_high;
  result.centre = row.centre;
}

double calibrate_on(const std::vector<CaseResult>& cases, double coverage) {
  std::vector<double> required;
  required.reserve(cases.size());
  for (const auto& c : cases) required.push_back(c.band_high.spread_to_reach(c.measured_step_ns));
  return calibrate_replica_loss(std::move(required), coverage);
}

HeldOutCoverage coverage_with(const std::vector<CaseResult>& cases, double replica_loss) {
  HeldOutCoverage result{0, cases.size()};
  for (const auto& c : cases) result.inside += c.in_band_with(replica_loss) ? 1 : 0;
  return result;
}

HeldOutCoverage held_out(const std::vector<CaseResult>& train, const std::vector<CaseResult>& test, double coverage) {
  return coverage_with(test, calibrate_by_source(train, coverage));
}

namespace {

std::vector<CaseResult> other_sources(const std::vector<CaseResult>& cases, const std::string& source) {
  std::vector<CaseResult> others;
  for (const auto& c : cases)
    if (c.source != source) others.push_back(c);
  return others;
}

// The rows of the other sources whose link is of the same kind: the replica loss is shipped per kind.
std::vector<CaseResult> other_sources_like(const std::vector<CaseResult>& cases, const CaseResult& row) {
  std::vector<CaseResult> others;
  for (const auto& c : cases)
    if (c.source != row.source && c.over_pcie == row.over_pcie) others.push_back(c);
  return others;
}

std::set<std::string> sources_of(const std::vector<CaseResult>& cases) {
  std::set<std::string> sources;
  for (const auto& c : cases) sources.insert(c.source);
  return sources;
}

}  // namespace

std::vector<CaseResult> with_centre_loss(std::vector<CaseResult> cases, const CentreLoss& loss) {
  for (auto& c : cases) {
    const double step = c.centre.at(loss);
    if (step <= 0 || c.measured_step_ns <= 0) continue;
    // The case's figure is a throughput: per step × 1 / step, and measured = per step / measured step.
    const double per_step = c.measured * c.measured_step_ns;
    c.predicted = per_step / step;
    c.band_high.nominal_ns = step;
    c.low_step_ns = std::min(c.low_step_ns, step);
    c.low = per_step / c.band_high.at(kPublishedReplicaLoss);
    c.high = per_step / c.low_step_ns;
  }
  return cases;
}

CentreLoss calibrate_centre_on(const std::vector<CaseResult>& cases) {
  std::vector<CentreRun> runs;
  runs.reserve(cases.size());
  for (const auto& c : cases) runs.push_back({c.centre, c.measured_step_ns});
  return calibrate_centre_loss(runs);
}

std::vector<CaseResult> centre_left_out(const std::vector<CaseResult>& train, const std::vector<CaseResult>& test) {
  std::vector<CaseResult> result;
  for (const auto& source : sources_of(test)) {
    std::vector<CaseResult> rows;
    for (const auto& c : test)
      if (c.source == source) rows.push_back(c);
    for (auto& c : with_centre_loss(rows, calibrate_centre_on(other_sources(train, source)))) result.push_back(c);
  }
  return result;
}

double calibrate_by_source(const std::vector<CaseResult>& cases, double coverage) {
  std::vector<double> per_source;
  for (const auto& source : sources_of(cases)) {
    std::vector<double> required;
    for (const auto& c : cases)
      if (c.source == source) required.push_back(c.band_high.spread_to_reach(c.measured_step_ns));
    std::sort(required.begin(), required.end());
    const auto rank = static_cast<std::size_t>(std::ceil(static_cast<double>(required.size()) * coverage));
    per_source.push_back(required[std::clamp<std::size_t>(rank, 1, required.size()) - 1]);
  }
  return calibrate_replica_loss(std::move(per_source), coverage);
}

void set_verdict(CaseResult& result, double one_gpu, bool lower_is_faster) {
  const double slow = lower_is_faster ? result.high : result.low, fast = lower_is_faster ? result.low : result.high;
  const auto beats = [&](double figure) { return lower_is_faster ? figure < one_gpu : figure > one_gpu; };
  const bool measured_faster = beats(result.measured);
  result.uncertain = !beats(slow) && beats(fast);
  result.verdict_right = !result.uncertain && beats(result.predicted) == measured_faster;
}

std::vector<CaseResult> band_rows_left_out(const std::vector<CaseResult>& train, const std::vector<CaseResult>& test,
                                           double coverage) {
  std::vector<CaseResult> rows = test;
  for (auto& c : rows) {
    if (c.measured_step_ns <= 0 || c.one_gpu <= 0) continue;
    const double loss = calibrate_by_source(other_sources_like(train, c), coverage);
    const double per_step = c.measured * c.measured_step_ns;
    c.low = per_step / c.band_high.at(loss);
    set_verdict(c, c.one_gpu);
  }
  return rows;
}

HeldOutCoverage band_left_out(const std::vector<CaseResult>& train, const std::vector<CaseResult>& test,
                              double coverage) {
  HeldOutCoverage result;
  for (const auto& c : test) {
    const double loss = calibrate_by_source(other_sources_like(train, c), coverage);
    ++result.cases, result.inside += c.in_band_with(loss) ? 1 : 0;
  }
  return result;
}

}  // namespace gpuprof::predict
