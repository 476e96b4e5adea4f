#include "gpuprof/comparison/waterfall_bars.hpp"

#include <algorithm>
#include <cmath>

#include "gpuprof/units/units.hpp"

namespace gpuprof::comparison {
namespace {

std::string duration(double ns) { return units::format_duration(static_cast<std::int64_t>(std::llround(ns))); }

std::string signed_duration(double ns) { return ns > 0 ? "+" + duration(ns) : duration(ns); }

}  // namespace

std::vector<WaterfallBar> waterfall_bars(const RunComparison& comparison) {
  std::vector<WaterfallChange> changes;
  for (const auto& term : comparison.waterfall) changes.push_back({term.name, term.delta_ns});
  return waterfall_bars("base step", comparison.base.step_ns, changes, "other step", comparison.other.step_ns);
}

std::vector<WaterfallBar> waterfall_bars(const std::string& base_name, double base_ns,
                                         const std::vector<WaterfallChange>& changes, const std::string& other_name,
                                         double other_ns) {
  std::vector<WaterfallBar> bars{{base_name, 0, base_ns, BarKind::base_step, duration(base_ns)}};
  double level = base_ns;
  for (const auto& change : changes) {
    bars.push_back({change.name, level, level + change.delta_ns,
                    change.delta_ns > 0 ? BarKind::slower : BarKind::faster, signed_duration(change.delta_ns)});
    level += change.delta_ns;
  }
  bars.push_back({other_name, 0, other_ns, BarKind::other_step, duration(other_ns)});
  return bars;
}

const char* bar_colour(BarKind kind) {
  switch (kind) {
    case BarKind::base_step: return "#7f7f7f";
    case BarKind::slower: return "#d62728";
    case BarKind::faster: return "#2ca02c";
    case BarKind::other_step: return "#4e79a7";
  }
  return "#7f7f7f";
}

WaterfallAxis waterfall_axis(const std::vector<WaterfallBar>& bars, int max_ticks) {
  double highest = 1, lowest = bars.empty() ? 0 : bars.front().to_ns;
  for (const auto& bar : bars) {
    highest = std::max({highest, bar.from_ns, bar.to_ns});
    lowest = std::min(lowest, bar.from_ns != 0 ? std::min(bar.from_ns, bar.to_ns) : bar.to_ns);
  }
  const double margin = std::max(highest - lowest, highest * 0.02);
  WaterfallAxis axis;
  if (highest < 1e6) axis.unit_ns = 1e3, axis.unit = "us";
  axis.ticks = report::nice_ticks(std::max(0.0, lowest - margin) / axis.unit_ns, highest / axis.unit_ns, max_ticks);
  axis.low_ns = axis.ticks.values.front() * axis.unit_ns;
  axis.high_ns = axis.ticks.values.back() * axis.unit_ns;
  return axis;
}

}  // namespace gpuprof::comparison
