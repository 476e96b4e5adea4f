#include "svg_charts.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "escaping.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::report {
namespace {

constexpr int kWidth = 760;
constexpr int kLabelWidth = 140;
constexpr const char* kComputeColor = "#4e79a7";
constexpr const char* kCommColor = "#59a14f";
constexpr const char* kMemcpyColor = "#b07aa1";
constexpr const char* kIdleColor = "#d9d9d9";
constexpr const char* kWarningColor = "#e15759";

std::string rect(double x, double y, double width, double height, const char* color, const std::string& tooltip) {
  return fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"><title>{}</title></rect>",
                     x, y, std::max(0.0, width), height, color, escape_html(tooltip));
}

std::string label(double x, double y, const std::string& text, const char* anchor = "start") {
  return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"{}\">{}</text>", x, y, anchor,
                     escape_html(text));
}

std::string svg(int height, const std::string& body) {
  return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">{}</svg>\n",
                     kWidth, height, kWidth, height, body);
}

std::string legend(double y, const std::vector<std::pair<const char*, const char*>>& entries) {
  std::string body;
  double x = kLabelWidth;
  for (const auto& [name, color] : entries) {
    body += rect(x, y, 10, 10, color, name) + label(x + 14, y + 9, name);
    x += 130;
  }
  return body;
}

}  // namespace

std::string breakdown_chart(const ReportInput& input) {
  std::string body;
  int y = 5;
  const double plot = kWidth - kLabelWidth - 10;
  for (const auto& rank : input.ranks) {
    for (const auto& device : rank.devices) {
      const auto& b = device.total;
      body += label(5, y + 13, fmt::format("rank {} GPU {}", rank.rank, device.device));
      double x = kLabelWidth;
      const std::pair<std::int64_t, std::pair<const char*, const char*>> parts[] = {
          {b.computation_ns, {"computation", kComputeColor}}, {b.exposed_comm_ns, {"exposed comm", kCommColor}},
          {b.exposed_memcpy_ns, {"exposed memcpy", kMemcpyColor}},
          {b.idle_in_steps_ns, {"idle in steps", kIdleColor}}, {b.batch_gap_ns, {"batch gaps", kWarningColor}}};
      for (const auto& [ns, style] : parts) {
        const double width = b.window_ns > 0 ? plot * static_cast<double>(ns) / static_cast<double>(b.window_ns) : 0;
        body += rect(x, y, width, 18, style.second, fmt::format("{}: {}", style.first, units::format_duration(ns)));
        x += width;
      }
      y += 24;
    }
  }
  body += legend(y + 4, {{"computation", kComputeColor}, {"exposed comm", kCommColor},
                         {"exposed memcpy", kMemcpyColor}, {"idle in steps", kIdleColor},
                         {"batch gaps", kWarningColor}});
  return svg(y + 20, body);
}

std::string transfer_matrix_chart(const analysis::RankAnalysis& rank) {
  const auto& matrix = rank.transfers.matrix;
  if (matrix.devices.empty()) return "<p>No GPU-to-GPU copies.</p>\n";
  std::int64_t most = 1;
  for (const auto& row : matrix.cells) {
    for (const auto& cell : row) most = std::max(most, cell.bytes);
  }
  const int cell_size = 48;
  std::string body = label(5, 14, "src \\ dst");
  for (std::size_t c = 0; c < matrix.devices.size(); ++c) {
    body += label(kLabelWidth + static_cast<double>(c) * cell_size + cell_size / 2.0, 14,
                  fmt::format("GPU {}", matrix.devices[c]), "middle");
  }
  for (std::size_t r = 0; r < matrix.devices.size(); ++r) {
    const double y = 20 + static_cast<double>(r) * cell_size;
    body += label(5, y + cell_size / 2.0, fmt::format("GPU {}", matrix.devices[r]));
    for (std::size_t c = 0; c < matrix.devices.size(); ++c) {
      const auto& cell = matrix.cells[r][c];
      const double share = static_cast<double>(cell.bytes) / static_cast<double>(most);
      const int shade = 255 - static_cast<int>(share * 200.0);
      const auto color = fmt::format("rgb(255,{},{})", shade, shade);
      body += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#999\"><title>{}</title></rect>",
                          kLabelWidth + static_cast<double>(c) * cell_size, y, cell_size, cell_size, color,
                          escape_html(fmt::format("GPU {} -> GPU {}: {} in {} copies, {}", matrix.devices[r],
                                                  matrix.devices[c], units::format_bytes(cell.bytes), cell.count,
                                                  units::format_duration(cell.total_ns))));
    }
  }
  return svg(static_cast<int>(30 + matrix.devices.size() * cell_size), body);
}

std::string step_chart(const analysis::RankAnalysis& rank) {
  if (rank.steps.empty()) return "<p>No steps.</p>\n";
  std::int64_t first = rank.steps.front().step.start_ns, last = rank.steps.front().step.end_ns;
  for (const auto& entry : rank.steps) {
    first = std::min(first, entry.step.start_ns);
    last = std::max(last, entry.step.end_ns);
  }
  const double plot = kWidth - kLabelWidth - 10;
  const auto x_of = [&](std::int64_t t) {
    return kLabelWidth + plot * static_cast<double>(t - first) / static_cast<double>(std::max<std::int64_t>(1, last - first));
  };
  std::string body;
  std::vector<std::int32_t> lanes;
  for (const auto& device : rank.devices) lanes.push_back(device.device);
  for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
    const double y = 5 + static_cast<double>(lane) * 24;
    body += label(5, y + 13, fmt::format("GPU {}", lanes[lane]));
    for (const auto& entry : rank.steps) {
      if (entry.step.device != lanes[lane]) continue;
      body += rect(x_of(entry.step.start_ns), y, x_of(entry.step.end_ns) - x_of(entry.step.start_ns), 18,
                   entry.step.warmup ? kIdleColor : kComputeColor,
                   fmt::format("step {}: {}", entry.step.step, units::format_duration(entry.breakdown.window_ns)));
    }
    for (const auto& gap : rank.gaps) {
      if (gap.device != lanes[lane]) continue;
      body += rect(x_of(gap.start_ns), y, x_of(gap.end_ns) - x_of(gap.start_ns), 18, kWarningColor,
                   fmt::format("gap after step {}: {} idle ({})", gap.after_step, units::format_duration(gap.idle_ns),
                               analysis::to_string(gap.cause)));
    }
  }
  const double bottom = 5 + static_cast<double>(lanes.size()) * 24;
  body += legend(bottom + 4, {{"step", kComputeColor}, {"warm-up step", kIdleColor}, {"batch gap", kWarningColor}});
  return svg(static_cast<int>(bottom + 20), body);
}

std::string top_kernels_chart(const analysis::RankAnalysis& rank, std::size_t count) {
  const auto& kernels = rank.kernels.kernels;
  if (kernels.empty()) return "<p>No kernels.</p>\n";
  const auto shown = std::min(count, kernels.size());
  const double most = static_cast<double>(std::max<std::int64_t>(1, kernels.front().stats.total_ns));
  const double plot = kWidth - 10 - 260;
  std::string body;
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& row = kernels[i];
    const double y = 5 + static_cast<double>(i) * 22;
    const auto name = row.name.size() > 40 ? row.name.substr(0, 37) + "..." : row.name;
    body += fmt::format("<text x=\"5\" y=\"{:.1f}\" font-size=\"11\">{}<title>{}</title></text>", y + 12,
                        escape_html(name), escape_html(row.name));
    body += rect(260, y, plot * static_cast<double>(row.stats.total_ns) / most, 16,
                 row.category == "communication" ? kCommColor : kComputeColor,
                 fmt::format("{}: {} ({:.1f}%)", row.name, units::format_duration(row.stats.total_ns), row.percent));
  }
  return svg(static_cast<int>(10 + shown * 22), body);
}

}  // namespace gpuprof::report
