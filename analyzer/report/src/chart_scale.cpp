#include "gpuprof/report/chart_scale.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpuprof::report {

Ticks nice_ticks(double low, double high, int max_count) {
  if (!std::isfinite(low) || !std::isfinite(high)) low = 0, high = 1;
  if (high < low) std::swap(low, high);
  if (high == low) high = low + 1;
  const double rough = (high - low) / std::max(1, max_count - 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
  double step = 10 * magnitude;
  for (const double factor : {1.0, 2.0, 5.0}) {
    if (factor * magnitude >= rough) {
      step = factor * magnitude;
      break;
    }
  }
  Ticks ticks{step, {}};
  const double first = std::floor(low / step + 1e-9) * step;
  for (double value = first; value < high + step * (1 - 1e-9); value += step) {
    ticks.values.push_back(std::fabs(value) < step * 1e-9 ? 0.0 : value);
  }
  return ticks;
}

std::string tick_label(double value, double step) {
  const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  return fmt::format("{:.{}f}", value, std::clamp(decimals, 0, 9));
}

}  // namespace gpuprof::report
