#pragma once

// The mapping between trace time (int64 ns) and horizontal pixels of a view.
// Trace clocks are often epoch-based (~1.7e18 ns), beyond what a double holds
// to the nanosecond, so the view is kept as double offsets from an int64
// origin: a double is exact to the nanosecond for ~104 days of offset.

#include <cstdint>
#include <vector>

namespace gpuprof::gui {

class TimeAxis {
 public:
  // Smallest span a view may show; zooming further only magnifies rounding.
  static constexpr double kMinSpanNs = 100.0;

  TimeAxis() = default;

  void set_width(double width_px);
  double width() const { return width_; }

  // The whole trace: panning and zooming out stay within [start, end) plus a margin.
  void set_limits(std::int64_t start_ns, std::int64_t end_ns);
  std::int64_t limit_start() const { return origin_; }
  std::int64_t limit_end() const { return origin_ + static_cast<std::int64_t>(limit_span_); }

  // Shows [start, end); spans below kMinSpanNs grow around their centre.
  void set_view(std::int64_t start_ns, std::int64_t end_ns);
  void fit_all() { set_view(limit_start(), limit_end()); }

  std::int64_t view_start() const;
  std::int64_t view_end() const;
  double view_span_ns() const { return span_; }

  double x_of(std::int64_t ns) const { return (static_cast<double>(ns - origin_) - offset_) * (width_ / span_); }
  // The time under pixel x, rounded to the nearest nanosecond.
  std::int64_t ns_of(double x) const;
  double ns_per_px() const { return span_ / width_; }

  // The same view for a clock that reads `offset_ns` less: shifted(d).x_of(t) == x_of(t + d). A rank whose
  // times read on the reference clock after adding d is drawn through it.
  TimeAxis shifted(std::int64_t offset_ns) const;

  // factor > 1 zooms in; the time under anchor_x stays under it.
  void zoom(double factor, double anchor_x);
  // Moves the view right (later) by dx pixels; negative moves left.
  void pan_px(double dx);

 private:
  void clamp();

  std::int64_t origin_ = 0;   // limit start
  double limit_span_ = 1.0;   // ns
  double offset_ = 0.0;       // view start − origin, ns
  double span_ = 1.0;         // view length, ns
  double width_ = 1.0;        // px
};

// Ruler ticks: a step of 1, 2 or 5 times a power of ten about `target_ns` long,
// and the tick offsets (ns after the session start) in [from_ns, to_ns). At most
// `max_ticks`, and never a tick that does not move: at offsets near INT64_MAX a
// double cannot add a small step, and the ruler once looped there forever.
double ruler_step(double target_ns);
std::vector<double> ruler_ticks(double from_ns, double to_ns, double step_ns, std::size_t max_ticks);

}  // namespace gpuprof::gui
