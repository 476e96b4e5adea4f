#include "gpuprof/predict/sample_statistics.hpp"

#include <algorithm>
#include <cmath>

#include "gpuprof/units/statistics.hpp"

namespace gpuprof::predict {

double robust_spread(const std::vector<double>& values) {
  const double centre = units::median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (const double v : values) deviations.push_back(std::abs(v - centre));
  const double mad = units::median(deviations);
  std::vector<double> kept;
  for (const double v : values)
    if (0.6745 * std::abs(v - centre) <= 3.5 * mad) kept.push_back(v);
  if (kept.size() < 2) return 0.0;
  double mean = 0, square = 0;
  for (const double v : kept) mean += v;
  mean /= static_cast<double>(kept.size());
  for (const double v : kept) square += (v - mean) * (v - mean);
  return std::sqrt(square / static_cast<double>(kept.size() - 1));
}

}  // namespace gpuprof::predict
