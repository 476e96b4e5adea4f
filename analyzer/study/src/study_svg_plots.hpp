#pragma once

// Inline SVG charts for the HTML study report: no scripts, no external files.

#include <optional>
#include <string>
#include <vector>

#include "gpuprof/report/table_rendering.hpp"

namespace gpuprof::study {

// Untrusted names in SVG and HTML text: the report library's escaping serves both.
using report::escape_html;

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (batch, value)
};

struct LineChart {
  std::string title, y_label;
  std::vector<Series> series;
  std::optional<double> reference_y;             // e.g. speedup 1.0
  std::vector<std::pair<double, std::string>> markers;  // vertical lines at a batch size, labelled
};

// Batch sizes on a log2 axis: sweeps double the batch from one point to the next.
std::string svg_line_chart(const LineChart& chart);

struct StackedBar {
  std::string label;
  std::vector<double> parts;  // same order as the legend; drawn as shares of their sum
};

std::string svg_stacked_bars(const std::string& title, const std::vector<std::string>& legend,
                             const std::vector<StackedBar>& bars);

}  // namespace gpuprof::study
