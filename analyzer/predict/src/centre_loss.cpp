#include "gpuprof/predict/centre_loss.hpp"

#include <algorithm>
#include <cmath>

namespace gpuprof::predict {

double CentreParts::sync_ns(const CentreLoss& loss) const {
  return std::max(measured_sync_ns, loss.replica_loss * loss_unit_ns);
}

double CentreParts::at(const CentreLoss& loss) const { return model_ns + exposed_ns(loss) + sync_ns(loss); }

namespace {

// The runs' mean |predicted / measured throughput − 1|; throughput goes with 1 / step.
double mean_error(const std::vector<CentreRun>& runs, const CentreLoss& loss) {
  double sum = 0;
  for (const auto& run : runs) sum += std::abs(run.measured_step_ns / run.parts.at(loss) - 1.0);
  return runs.empty() ? 0.0 : sum / static_cast<double>(runs.size());
}

}  // namespace

CentreLoss calibrate_centre_loss(const std::vector<CentreRun>& runs) {
  CentreLoss best;
  double best_error = mean_error(runs, best);
  for (int e = 0; e <= 20; ++e)
    for (int r = 0; r <= 60; ++r) {
      const CentreLoss loss{0.05 * e, 0.0025 * r};
      const double error = mean_error(runs, loss);
      if (error < best_error) best = loss, best_error = error;
    }
  return best;
}

}  // namespace gpuprof::predict
