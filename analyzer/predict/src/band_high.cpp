#include "gpuprof/predict/band_high.hpp"

#include <algorithm>
#include <cmath>

namespace gpuprof::predict {

double BandHigh::at(double spread) const {
  return std::max(nominal_ns, replay_ns + std::max(measured_sync_ns, spread * loss_unit_ns));
}

double BandHigh::spread_to_reach(double measured_ns) const {
  if (measured_ns <= at(0.0)) return 0.0;
  if (loss_unit_ns <= 0.0) return INFINITY;  // no replicas: no spread reaches it
  return (measured_ns - replay_ns) / loss_unit_ns;
}

double calibrate_replica_loss(std::vector<double> required_spreads, double coverage) {
  if (required_spreads.empty()) return 0.0;
  std::sort(required_spreads.begin(), required_spreads.end());
  const auto n = required_spreads.size();
  const auto rank = static_cast<std::size_t>(std::ceil(static_cast<double>(n + 1) * coverage));
  return required_spreads[std::clamp<std::size_t>(rank, 1, n) - 1];
}

}  // namespace gpuprof::predict
