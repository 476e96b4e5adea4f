#include "waterfall_svg.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpuprof/comparison/waterfall_bars.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::comparison {
namespace {

constexpr double kWidth = 860, kLabelWidth = 220, kValueWidth = 90, kRow = 24, kTop = 24, kAxis = 34;

std::string text(double x, double y, const std::string& content, const char* anchor, const char* colour = "#222") {
  return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"{}\" fill=\"{}\">{}</text>\n", x,
                     y, anchor, colour, report::escape_html(content));
}

}  // namespace

std::string waterfall_svg(const RunComparison& comparison) {
  const auto items = waterfall_bars(comparison);
  const auto axis = waterfall_axis(items);
  const double axis_low = axis.low_ns, axis_high = axis.high_ns;
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
  const std::string unit = std::string(" ") + axis.unit;
  for (const double value : axis.ticks.values) {
    const double x = x_of(value * axis.unit_ns);
    out += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>\n", x, kTop,
                       bottom);
    out += text(x, bottom + 14, report::tick_label(value, axis.ticks.step) + unit, "middle", "#555");
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto& row = items[i];
    const double y = kTop + kRow * static_cast<double>(i) + 3;
    const double x0 = x_of(std::min(row.from_ns, row.to_ns)), x1 = x_of(std::max(row.from_ns, row.to_ns));
    out += text(kLabelWidth - 6, y + 13, row.name, "end");
    out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"18\" fill=\"{}\"><title>{}: {}</title></rect>\n",
                       x0, y, std::max(1.0, x1 - x0), bar_colour(row.kind), report::escape_html(row.name), row.value);
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
