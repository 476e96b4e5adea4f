#include "study_svg_plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpuprof/report/chart_scale.hpp"

namespace gpuprof::study {
namespace {

constexpr double kWidth = 560, kHeight = 300, kLeft = 60, kRight = 130, kTop = 30, kBottom = 40;
const char* const kColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"};

struct Scale {
  double low, high, pixel_low, pixel_high;
  bool log2;
  double operator()(double value) const {
    const auto map = [&](double v) { return log2 ? std::log2(v) : v; };
    const double span = map(high) - map(low);
    const double t = span > 0 ? (map(value) - map(low)) / span : 0.5;
    return pixel_low + t * (pixel_high - pixel_low);
  }
};

std::string text(double x, double y, const std::string& content, const char* anchor = "middle") {
  return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\" font-size=\"11\">{}</text>\n", x, y, anchor,
                     escape_html(content));
}

std::pair<double, double> x_range(const LineChart& chart) {
  double low = INFINITY, high = 0;
  for (const auto& series : chart.series) {
    for (const auto& [x, y] : series.points) {
      low = std::min(low, x);
      high = std::max(high, x);
    }
  }
  if (!std::isfinite(low)) return {1, 2};
  return {low, std::max(high, low * 2)};
}

report::Ticks y_ticks(const LineChart& chart) {
  double high = chart.reference_y.value_or(0);
  for (const auto& series : chart.series) {
    for (const auto& [x, y] : series.points) high = std::max(high, y);
  }
  return report::nice_ticks(0, high > 0 ? high : 1, 6);
}

std::string axes(const LineChart& chart, const Scale& x, const Scale& y, const report::Ticks& ticks) {
  std::string out = fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n",
                                kLeft, kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
  for (double tick = std::exp2(std::floor(std::log2(x.low))); tick <= x.high * 1.0001; tick *= 2) {
    if (tick >= x.low * 0.9999) out += text(x(tick), kHeight - kBottom + 15, fmt::format("{:.0f}", tick));
  }
  for (const double value : ticks.values) {
    out += fmt::format("<line x1=\"{0}\" x2=\"{1}\" y1=\"{2:.1f}\" y2=\"{2:.1f}\" stroke=\"#e4e4e4\"/>\n", kLeft,
                       kWidth - kRight, y(value));
    out += text(kLeft - 5, y(value) + 4, report::tick_label(value, ticks.step), "end");
  }
  out += text((kLeft + kWidth - kRight) / 2, kHeight - 8, "batch size");
  out += text(kLeft, kTop - 12, chart.y_label, "start");
  return out;
}

}  // namespace

std::string svg_line_chart(const LineChart& chart) {
  const auto [x_low, x_high] = x_range(chart);
  const Scale x{x_low, x_high, kLeft + 10, kWidth - kRight - 10, true};
  const auto ticks = y_ticks(chart);
  const Scale y{0, ticks.values.back(), kHeight - kBottom, kTop, false};
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" role=\"img\"><title>{}</title>\n", kWidth,
      kHeight, escape_html(chart.title));
  out += axes(chart, x, y, ticks);
  if (chart.reference_y) {
    out += fmt::format("<line x1=\"{}\" x2=\"{}\" y1=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#555\" stroke-dasharray=\"4 3\"/>\n",
                       kLeft, kWidth - kRight, y(*chart.reference_y), y(*chart.reference_y));
  }
  for (const auto& [batch, label] : chart.markers) {
    if (batch < x_low || batch > x_high) continue;
    out += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2}\" stroke=\"#888\"/>\n", x(batch), kTop,
                       kHeight - kBottom);
    out += text(x(batch), kTop + 12, label);
  }
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    const auto& series = chart.series[i];
    const char* colour = kColours[i % std::size(kColours)];
    std::string path;
    for (const auto& [px, py] : series.points) path += fmt::format("{:.1f},{:.1f} ", x(px), y(py));
    out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", colour, path);
    for (const auto& [px, py] : series.points) {
      out += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>\n", x(px), y(py), colour);
    }
    const double legend_y = kTop + 15 + 16 * static_cast<double>(i);
    out += fmt::format("<rect x=\"{}\" y=\"{:.1f}\" width=\"10\" height=\"10\" fill=\"{}\"/>\n", kWidth - kRight + 10,
                       legend_y - 9, colour);
    out += text(kWidth - kRight + 25, legend_y, series.name, "start");
  }
  return out + "</svg>\n";
}

std::string svg_stacked_bars(const std::string& title, const std::vector<std::string>& legend,
                             const std::vector<StackedBar>& bars) {
  const double bar_height = 18, gap = 6, label_width = 150, plot_width = 330;
  // Legend entries laid out by the length of their names, wrapping before the right edge.
  const double total_width = label_width + plot_width + kRight + 20;
  std::vector<std::pair<double, double>> legend_at;  // (x, y) of each entry
  double lx = label_width, ly = 8;
  for (const auto& name : legend) {
    const double width = 24 + 6.5 * static_cast<double>(name.size());
    if (lx + width > total_width && lx > label_width) lx = label_width, ly += 16;
    legend_at.emplace_back(lx, ly);
    lx += width;
  }
  const double top_of_bars = ly + 22;
  const double height = top_of_bars + static_cast<double>(bars.size()) * (bar_height + gap) + 20;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{:.0f}\" role=\"img\"><title>{}</title>\n",
      total_width, height, escape_html(title));
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const auto [x, y] = legend_at[i];
    out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"10\" height=\"10\" fill=\"{}\"/>\n", x, y,
                       kColours[i % std::size(kColours)]);
    out += text(x + 14, y + 9, legend[i], "start");
  }
  for (std::size_t b = 0; b < bars.size(); ++b) {
    const double top = top_of_bars + static_cast<double>(b) * (bar_height + gap);
    out += text(label_width - 6, top + 13, bars[b].label, "end");
    double sum = 0;
    for (const double part : bars[b].parts) sum += part;
    double left = label_width;
    for (std::size_t i = 0; i < bars[b].parts.size() && sum > 0; ++i) {
      const double share = bars[b].parts[i] / sum;
      const double width = plot_width * share;
      const std::string name = i < legend.size() ? legend[i] : std::string();
      out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\"><title>{}: {:.1f}%</title></rect>\n",
                         left, top, width, bar_height, kColours[i % std::size(kColours)], escape_html(name),
                         100 * share);
      if (width >= 34) {
        out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#fff\">{:.0f}%</text>\n",
                           left + width / 2, top + 13, 100 * share);
      }
      left += width;
    }
  }
  return out + "</svg>\n";
}

}  // namespace gpuprof::study
