#include "waterfall_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpuprof/report/chart_scale.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::comparison {
namespace {

constexpr double kWidth = 860, kLabelWidth = 220, kValueWidth = 90, kRow = 24, kTop = 24, kAxis = 34;

struct Row {
  std::string name;
  double from = 0, to = 0;  // ns
  const char* colour;
  std::string value;
};

std::string signed_duration(double ns) {
  const auto text = units::format_duration(static_cast<std::int64_t>(std::llround(ns)));
  return ns > 0 ? "+" + text : text;
}

std::vector<Row> rows(const RunComparison& comparison) {
  const auto duration = [](double ns) { return units::format_duration(static_cast<std::int64_t>(std::llround(ns))); };
  std::vector<Row> out{{"base step", 0, comparison.base.step_ns, "#7f7f7f", duration(comparison.base.step_ns)}};
  double level = comparison.base.step_ns;
  for (const auto& term : comparison.waterfall) {
    out.push_back({term.name, level, level + term.delta_ns, term.delta_ns > 0 ? "#d62728" : "#2ca02c",
                   signed_duration(term.delta_ns)});
    level += term.delta_ns;
  }
  out.push_back({"other step", 0, comparison.other.step_ns, "#4e79a7", duration(comparison.other.step_ns)});
  return out;
}

std::string text(double x, double y, const std::string& content, const char* anchor, const char* colour = "#222") {
  return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"{}\" fill=\"{}\">{}</text>\n", x,
                     y, anchor, colour, report::escape_html(content));
}

}  // namespace

std::string waterfall_svg(const RunComparison& comparison) {
  const auto items = rows(comparison);
  double lowest = items.front().to, highest = 1;
  for (const auto& row : items) {
    highest = std::max({highest, row.from, row.to});
    if (row.from != 0) lowest = std::min({lowest, row.from, row.to});
  }
  lowest = std::min({lowest, items.front().to, items.back().to});
  // Changes are often small next to the step: the axis starts below the lowest level any
  // term reaches (said under the chart), so every change stays visible.
  const double margin = std::max(highest - lowest, highest * 0.02);
  const double use_ms = highest >= 1e6 ? 1e6 : 1e3;
  const auto ticks = report::nice_ticks(std::max(0.0, lowest - margin) / use_ms, highest / use_ms, 7);
  const double axis_low = ticks.values.front() * use_ms, axis_high = ticks.values.back() * use_ms;
  const double plot = kWidth - kLabelWidth - kValueWidth;
  const auto x_of = [&](double ns) {
    return kLabelWidth + plot * (std::clamp(ns, axis_low, axis_high) - axis_low) / (axis_high - axis_low);
  };
  const double bottom = kTop + kRow * static_cast<double>(items.size());
  const double height = bottom + kAxis + 16;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1:.0f}\" viewBox=\"0 0 {0} {1:.0f}\" "
      "role=\"img\"><title>Step time waterfall</title>\n",
      kWidth, height);
  out += text(kLabelWidth, 14, "Step time: base, the change of each term (red slower, green faster), other", "start");
  const char* unit = use_ms == 1e6 ? " ms" : " us";
  for (const double value : ticks.values) {
    const double x = x_of(value * use_ms);
    out += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>\n", x, kTop,
                       bottom);
    out += text(x, bottom + 14, report::tick_label(value, ticks.step) + unit, "middle", "#555");
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto& row = items[i];
    const double y = kTop + kRow * static_cast<double>(i) + 3;
    const double x0 = x_of(std::min(row.from, row.to)), x1 = x_of(std::max(row.from, row.to));
    out += text(kLabelWidth - 6, y + 13, row.name, "end");
    out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"18\" fill=\"{}\"><title>{}: {}</title></rect>\n",
                       x0, y, std::max(1.0, x1 - x0), row.colour, report::escape_html(row.name), row.value);
    out += text(x1 + 4, y + 13, row.value, "start");
  }
  if (axis_low > 0) {
    out += text(kLabelWidth, bottom + 30,
                fmt::format("the axis starts at {}, not 0, so that small changes stay visible",
                            units::format_duration(static_cast<std::int64_t>(axis_low))),
                "start", "#555");
  }
  return out + "</svg>\n";
}

}  // namespace gpuprof::comparison
