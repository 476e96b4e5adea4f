#include "study_svg_plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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

double y_top(const LineChart& chart) {
  double high = chart.reference_y.value_or(0);
  for (const auto& series : chart.series) {
    for (const auto& [x, y] : series.points) high = std::max(high, y);
  }
  return high > 0 ? high * 1.1 : 1;
}

std::string axes(const LineChart& chart, const Scale& x, const Scale& y) {
  std::string out = fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#999\"/>\n",
                                kLeft, kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom);
  for (double tick = std::exp2(std::floor(std::log2(x.low))); tick <= x.high * 1.0001; tick *= 2) {
    if (tick >= x.low * 0.9999) out += text(x(tick), kHeight - kBottom + 15, fmt::format("{:.0f}", tick));
  }
  for (int i = 0; i <= 4; ++i) {
    const double value = y.high * i / 4;
    out += text(kLeft - 5, y(value) + 4, fmt::format("{:.3g}", value), "end");
  }
  out += text((kLeft + kWidth - kRight) / 2, kHeight - 8, "batch size");
  out += text(kLeft, kTop - 12, chart.y_label, "start");
  return out;
}

}  // namespace

std::string svg_line_chart(const LineChart& chart) {
  const auto [x_low, x_high] = x_range(chart);
  const Scale x{x_low, x_high, kLeft + 10, kWidth - kRight - 10, true};
  const Scale y{0, y_top(chart), kHeight - kBottom, kTop, false};
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" role=\"img\"><title>{}</title>\n", kWidth,
      kHeight, escape_html(chart.title));
  out += axes(chart, x, y);
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
  const double height = kTop + static_cast<double>(bars.size()) * (bar_height + gap) + 20;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{:.0f}\" role=\"img\"><title>{}</title>\n",
      label_width + plot_width + kRight + 20, height, escape_html(title));
  for (std::size_t i = 0; i < legend.size(); ++i) {
    const double lx = label_width + static_cast<double>(i) * 95;
    out += fmt::format("<rect x=\"{:.1f}\" y=\"8\" width=\"10\" height=\"10\" fill=\"{}\"/>\n", lx,
                       kColours[i % std::size(kColours)]);
    out += text(lx + 14, 17, legend[i], "start");
  }
  for (std::size_t b = 0; b < bars.size(); ++b) {
    const double top = kTop + static_cast<double>(b) * (bar_height + gap);
    out += text(label_width - 6, top + 13, bars[b].label, "end");
    double sum = 0;
    for (const double part : bars[b].parts) sum += part;
    double left = label_width;
    for (std::size_t i = 0; i < bars[b].parts.size() && sum > 0; ++i) {
      const double width = plot_width * bars[b].parts[i] / sum;
      out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\"/>\n", left, top,
                         width, bar_height, kColours[i % std::size(kColours)]);
      left += width;
    }
  }
  return out + "</svg>\n";
}

}  // namespace gpuprof::study
