#include "case_band.hpp"

namespace gpuprof::predict {

void set_step_band(CaseResult& result, const GpuCountPrediction& row, double measured_step_ns) {
  result.measured_step_ns = measured_step_ns;
  result.low_step_ns = row.low_ns;
  result.band_high = row.band_high;
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
  return coverage_with(test, calibrate_on(train, coverage));
}

HeldOutCoverage leave_one_out(const std::vector<CaseResult>& cases, double coverage) {
  HeldOutCoverage result{0, cases.size()};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    auto others = cases;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(i));
    result.inside += cases[i].in_band_with(calibrate_on(others, coverage)) ? 1 : 0;
  }
  return result;
}

}  // namespace gpuprof::predict
