#include "gpuprof/gui/time_axis.hpp"

#include <algorithm>
#include <cmath>

namespace gpuprof::gui {
namespace {
// Zooming out or panning may show this much empty time beyond either end of the trace.
constexpr double kLimitMargin = 0.05;
}  // namespace

void TimeAxis::set_width(double width_px) { width_ = std::max(1.0, width_px); }

void TimeAxis::set_limits(std::int64_t start_ns, std::int64_t end_ns) {
  origin_ = start_ns;
  limit_span_ = std::max(1.0, static_cast<double>(end_ns - start_ns));
  clamp();
}

void TimeAxis::set_view(std::int64_t start_ns, std::int64_t end_ns) {
  const double start = static_cast<double>(start_ns - origin_);
  const double span = static_cast<double>(end_ns - start_ns);
  if (span < kMinSpanNs) {
    const double centre = start + span / 2;
    offset_ = centre - kMinSpanNs / 2;
    span_ = kMinSpanNs;
  } else {
    offset_ = start;
    span_ = span;
  }
  clamp();
}

std::int64_t TimeAxis::view_start() const { return origin_ + std::llround(offset_); }
std::int64_t TimeAxis::view_end() const { return origin_ + std::llround(offset_ + span_); }

std::int64_t TimeAxis::ns_of(double x) const { return origin_ + std::llround(offset_ + x * (span_ / width_)); }

TimeAxis TimeAxis::shifted(std::int64_t offset_ns) const {
  TimeAxis copy = *this;
  copy.origin_ -= offset_ns;
  return copy;
}

void TimeAxis::zoom(double factor, double anchor_x) {
  if (!(factor > 0)) return;
  const double anchor_ns = offset_ + anchor_x * (span_ / width_);
  const double new_span = std::max(kMinSpanNs, span_ / factor);
  offset_ = anchor_ns - anchor_x * (new_span / width_);
  span_ = new_span;
  clamp();
}

void TimeAxis::pan_px(double dx) {
  offset_ += dx * (span_ / width_);
  clamp();
}

// Keeps the view inside the limits plus a margin, so the user cannot get lost in empty time.
void TimeAxis::clamp() {
  const double margin = limit_span_ * kLimitMargin;
  const double lo = -margin, hi = limit_span_ + margin;
  span_ = std::min(span_, hi - lo);
  offset_ = std::clamp(offset_, lo, hi - span_);
}

double ruler_step(double target_ns) {
  const double power = std::pow(10.0, std::floor(std::log10(std::max(target_ns, 1.0))));
  for (const double factor : {1.0, 2.0, 5.0}) {
    if (power * factor >= target_ns) return power * factor;
  }
  return power * 10;
}

std::vector<double> ruler_ticks(double from_ns, double to_ns, double step_ns, std::size_t max_ticks) {
  std::vector<double> ticks;
  if (!(step_ns > 0) || !std::isfinite(from_ns) || !std::isfinite(to_ns)) return ticks;
  const double first = std::ceil(from_ns / step_ns) * step_ns;
  for (std::size_t i = 0; i < max_ticks; ++i) {
    const double t = first + static_cast<double>(i) * step_ns;
    if (t >= to_ns) break;
    if (!ticks.empty() && t <= ticks.back()) break;  // the step is below the double's resolution here
    ticks.push_back(t);
  }
  return ticks;
}

}  // namespace gpuprof::gui
