#pragma once

// The bars of the step-time waterfall and the axis they are drawn on, one
// definition for the HTML report's SVG and the desktop app's chart, so both
// show the same bars from the same floor.

#include <string>
#include <vector>

#include "gpuprof/comparison/run_comparison.hpp"
#include "gpuprof/report/chart_scale.hpp"

namespace gpuprof::comparison {

enum class BarKind { base_step, slower, faster, other_step };

struct WaterfallBar {
  std::string name;
  double from_ns = 0, to_ns = 0;  // a step bar runs from 0; a term floats from the level the ones before reached
  BarKind kind = BarKind::base_step;
  std::string value;  // the step time, or the term's change with its sign ("+1.20 ms")
};

// The base step, each waterfall term in order, then the other run's step.
std::vector<WaterfallBar> waterfall_bars(const RunComparison& comparison);

// The same from any step and the changes that lead from it (name, change in ns), in the order given:
// a prediction's terms draw as a comparison's do.
struct WaterfallChange {
  std::string name;
  double delta_ns = 0;
};
std::vector<WaterfallBar> waterfall_bars(const std::string& base_name, double base_ns,
                                         const std::vector<WaterfallChange>& changes, const std::string& other_name,
                                         double other_ns);

// "#rrggbb": grey base step, red slower, green faster, blue other step.
const char* bar_colour(BarKind kind);

struct WaterfallAxis {
  double low_ns = 0, high_ns = 1;  // the first and last tick
  report::Ticks ticks;             // in `unit_ns`
  double unit_ns = 1e6;
  const char* unit = "ms";
};

// Changes are often small next to the step: the axis starts below the lowest level any term reaches (a
// chart must say so when low_ns > 0), on round ticks, at most about `max_ticks` of them.
WaterfallAxis waterfall_axis(const std::vector<WaterfallBar>& bars, int max_ticks = 7);

}  // namespace gpuprof::comparison
