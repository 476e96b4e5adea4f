#include "gpuprof/study/scaling_fit.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "gpuprof/units/statistics.hpp"

namespace gpuprof::study {
namespace {

// Slopes closer than this (relative) are parallel: their difference is rounding noise.
constexpr double kRelativeSlopeTolerance = 1e-12;

double batch_value(const BreakEven& outcome) {
  if (outcome.kind == BreakEvenKind::breaks_even) return outcome.batch;
  if (outcome.kind == BreakEvenKind::always_faster) return 0;
  return kInfinity;
}

struct Residuals {
  std::vector<double> values;
};

// Residuals inflated by sqrt(n / (n - 2)): raw least-squares residuals are smaller than the errors they stand for.
Residuals residuals_of(const std::vector<TimePoint>& points, const LineFit& fit) {
  Residuals residuals;
  const double n = static_cast<double>(points.size());
  const double inflation = n > 2 ? std::sqrt(n / (n - 2)) : 1.0;
  for (const auto& point : points) residuals.values.push_back((point.seconds - fit.at(point.batch)) * inflation);
  return residuals;
}

std::vector<TimePoint> resample(const std::vector<TimePoint>& points, const LineFit& fit, const Residuals& residuals,
                                std::mt19937_64& generator) {
  std::vector<TimePoint> drawn;
  drawn.reserve(points.size());
  for (const auto& point : points) {
    // Modulo instead of a std distribution: its output is the same with every standard library.
    const double residual = residuals.values[generator() % residuals.values.size()];
    drawn.push_back({point.batch, fit.at(point.batch) + residual});
  }
  return drawn;
}

}  // namespace

const char* to_string(BreakEvenKind kind) {
  switch (kind) {
    case BreakEvenKind::breaks_even: return "breaks_even";
    case BreakEvenKind::always_faster: return "always_faster";
    case BreakEvenKind::never: return "never";
    case BreakEvenKind::faster_below: return "faster_below";
  }
  return "never";
}

LineFit fit_line(const std::vector<TimePoint>& points) {
  LineFit fit;
  fit.points = points.size();
  if (points.size() < 2) return fit;
  double mean_b = 0, mean_t = 0;
  for (const auto& point : points) {
    mean_b += point.batch;
    mean_t += point.seconds;
  }
  mean_b /= static_cast<double>(points.size());
  mean_t /= static_cast<double>(points.size());
  double sbb = 0, sbt = 0, stt = 0;
  for (const auto& point : points) {
    sbb += (point.batch - mean_b) * (point.batch - mean_b);
    sbt += (point.batch - mean_b) * (point.seconds - mean_t);
    stt += (point.seconds - mean_t) * (point.seconds - mean_t);
  }
  if (sbb <= 0) return fit;
  fit.valid = true;
  fit.slope = sbt / sbb;
  fit.intercept = mean_t - fit.slope * mean_b;
  fit.r_squared = stt > 0 ? (sbt * sbt) / (sbb * stt) : 1.0;
  return fit;
}

BreakEven solve_break_even(const LineFit& one, const LineFit& many) {
  const double intercept_gap = many.intercept - one.intercept;  // > 0: N GPUs pay more per step
  const double slope_gap = many.slope - one.slope;              // < 0: N GPUs pay less per sample
  const double scale = std::max(std::abs(one.slope), std::abs(many.slope));
  if (std::abs(slope_gap) <= kRelativeSlopeTolerance * scale || slope_gap == 0) {
    return {intercept_gap < 0 ? BreakEvenKind::always_faster : BreakEvenKind::never, 0};
  }
  const double crossing = -intercept_gap / slope_gap;
  if (slope_gap < 0) {
    return crossing <= 0 ? BreakEven{BreakEvenKind::always_faster, 0} : BreakEven{BreakEvenKind::breaks_even, crossing};
  }
  return crossing <= 0 ? BreakEven{BreakEvenKind::never, 0} : BreakEven{BreakEvenKind::faster_below, crossing};
}

BreakEvenInterval bootstrap_break_even(const std::vector<TimePoint>& one, const std::vector<TimePoint>& many,
                                       std::size_t resamples, std::uint64_t seed) {
  BreakEvenInterval interval;
  const auto fit_one = fit_line(one);
  const auto fit_many = fit_line(many);
  if (!fit_one.valid || !fit_many.valid || one.size() < 3 || many.size() < 3 || resamples == 0) return interval;
  const auto residuals_one = residuals_of(one, fit_one);
  const auto residuals_many = residuals_of(many, fit_many);
  std::mt19937_64 generator(seed);
  std::vector<double> values;
  std::size_t breaking_even = 0;
  for (std::size_t i = 0; i < resamples; ++i) {
    const auto refit_one = fit_line(resample(one, fit_one, residuals_one, generator));
    const auto refit_many = fit_line(resample(many, fit_many, residuals_many, generator));
    const auto outcome = solve_break_even(refit_one, refit_many);
    if (outcome.kind == BreakEvenKind::breaks_even) ++breaking_even;
    values.push_back(batch_value(outcome));
  }
  std::sort(values.begin(), values.end());
  interval.available = true;
  interval.low = units::nearest_rank_percentile(std::span<const double>(values), 2.5);
  interval.high = units::nearest_rank_percentile(std::span<const double>(values), 97.5);
  interval.share_breaking_even = static_cast<double>(breaking_even) / static_cast<double>(resamples);
  interval.resamples = resamples;
  return interval;
}

}  // namespace gpuprof::study
