#pragma once

// Axis ticks on round values (steps of 1, 2 or 5 × 10^k) and their labels, for
// every SVG chart of the HTML documents, so no axis reads 4.8 / 9.7 / 14.5 or 1.54e+04.

#include <string>
#include <vector>

namespace gpuprof::report {

struct Ticks {
  double step = 1;
  std::vector<double> values;  // from a multiple of step at or below `low` to one at or above `high`
};

// At most about `max_count` ticks covering [low, high]; low == high gets a unit-wide axis.
Ticks nice_ticks(double low, double high, int max_count = 6);

// A tick value written with as many decimals as the step needs, never in exponent form.
std::string tick_label(double value, double step);

}  // namespace gpuprof::report
