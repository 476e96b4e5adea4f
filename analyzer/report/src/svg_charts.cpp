#include "gpuprof/analysis/kernel_labels.hpp"
#include "svg_charts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "escaping.hpp"
#include "gpuprof/report/chart_scale.hpp"
#include "gpuprof/report/part_colors.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::report {
namespace {

constexpr int kWidth = 860;
constexpr int kLabelWidth = 140;
constexpr int kValueWidth = 90;  // right of the plot: each bar's total
constexpr int kAxisHeight = 30;
constexpr double kMinValueLabelPx = 36;  // narrower segments show their value in the tooltip only
constexpr const char* kComputeColor = colors::kComputation;
constexpr const char* kCommColor = colors::kExposedComm;
constexpr const char* kMemcpyColor = colors::kExposedMemcpy;
constexpr const char* kIdleColor = colors::kIdleInSteps;
constexpr const char* kWarningColor = colors::kBatchGaps;
constexpr const char* kSameDeviceColor = "#eeeeee";

}  // namespace

const char* part_color(PeriodPartKind kind) {
  switch (kind) {
    case PeriodPartKind::computation: return kComputeColor;
    case PeriodPartKind::exposed_comm: return kCommColor;
    case PeriodPartKind::exposed_memcpy: return kMemcpyColor;
    case PeriodPartKind::idle_in_steps: return kIdleColor;
    case PeriodPartKind::batch_gaps: return kWarningColor;
  }
  return kIdleColor;
}

namespace {

std::string rect(double x, double y, double width, double height, const char* color, const std::string& tooltip) {
  return fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"><title>{}</title></rect>",
                     x, y, std::max(0.0, width), height, color, escape_html(tooltip));
}

std::string label(double x, double y, const std::string& text, const char* anchor = "start",
                  const char* color = "#222") {
  return fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"{}\" fill=\"{}\">{}</text>", x,
                     y, anchor, color, escape_html(text));
}

std::string svg(int height, const std::string& body) {
  return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">{}</svg>\n",
                     kWidth, height, kWidth, height, body);
}

// Entries laid out by the length of their names, wrapping to a new line before the right edge.
std::string legend(double y, const std::vector<std::pair<const char*, const char*>>& entries) {
  std::string body;
  double x = kLabelWidth;
  for (const auto& [name, color] : entries) {
    const double width = 24 + 6.5 * static_cast<double>(std::string_view(name).size());
    if (x + width > kWidth) x = kLabelWidth, y += 16;
    body += rect(x, y, 10, 10, color, name) + label(x + 14, y + 9, name);
    x += width;
  }
  return body;
}

// Vertical grid lines and labels under a horizontal plot from x0 to x0 + width showing [0, high].
std::string x_axis(double x0, double width, double top, double bottom, double high, const std::string& unit) {
  const auto ticks = nice_ticks(0, high, 6);
  const double shown_high = ticks.values.back();
  std::string body;
  for (const double value : ticks.values) {
    const double x = x0 + width * value / shown_high;
    body += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1:.1f}\" y2=\"{2:.1f}\" stroke=\"#ccc\"/>", x, top,
                        bottom);
    body += label(x, bottom + 13, tick_label(value, ticks.step) + unit, "middle", "#555");
  }
  return body;
}

// The highest tick of an axis over [0, high]: bars are scaled to it so they meet the grid.
double axis_high(double high) { return nice_ticks(0, high, 6).values.back(); }

}  // namespace

std::string breakdown_chart(const ReportInput& input) {
  const double plot = kWidth - kLabelWidth - kValueWidth;
  std::string body;
  int y = 5;
  for (const auto& rank : input.ranks) {
    for (const auto& device : rank.devices) {
      // The windows the summary cards are over (steady steps, or the span without steps), so bar and cards agree.
      const auto& b = device.step_basis();
      body += label(5, y + 13, fmt::format("rank {} GPU {}", rank.rank, device.device));
      double x = kLabelWidth;
      const std::pair<std::int64_t, std::pair<const char*, const char*>> parts[] = {
          {b.computation_ns, {"computation", kComputeColor}}, {b.exposed_comm_ns, {"exposed comm", kCommColor}},
          {b.exposed_memcpy_ns, {"exposed memcpy", kMemcpyColor}},
          {b.idle_in_steps_ns, {"idle in steps", kIdleColor}}, {b.batch_gap_ns, {"batch gaps", kWarningColor}}};
      for (const auto& [ns, style] : parts) {
        const double share = b.window_ns > 0 ? static_cast<double>(ns) / static_cast<double>(b.window_ns) : 0;
        const double width = plot * share;
        body += rect(x, y, width, 18, style.second,
                     fmt::format("{}: {} ({:.1f}%)", style.first, units::format_duration(ns), 100 * share));
        if (width >= kMinValueLabelPx) {
          const char* ink = style.second == kIdleColor ? "#222" : "#fff";
          body += label(x + width / 2, y + 13, fmt::format("{:.0f}%", 100 * share), "middle", ink);
        }
        x += width;
      }
      body += label(kLabelWidth + plot + 6, y + 13, units::format_duration(b.window_ns));
      y += 24;
    }
  }
  body = x_axis(kLabelWidth, plot, 2, y, 100, "%") + body;
  body += legend(y + kAxisHeight - 6, {{"computation", kComputeColor}, {"exposed comm", kCommColor},
                                       {"exposed memcpy", kMemcpyColor}, {"idle in steps", kIdleColor},
                                       {"batch gaps", kWarningColor}});
  return svg(y + kAxisHeight + 16, body);
}

std::string transfer_matrix_chart(const analysis::RankAnalysis& rank) {
  const auto entries = analysis::matrix_entries(rank.transfers.matrix);
  if (entries.empty()) return "<p>No device-to-device copies.</p>\n";
  std::map<std::int32_t, std::size_t> index;
  for (const auto& entry : entries) index[entry.src_device] = index[entry.dst_device] = 0;
  std::size_t next = 0;
  for (auto& [device, position] : index) position = next++;
  std::int64_t most = 1;
  for (const auto& entry : entries) {
    if (entry.src_device != entry.dst_device) most = std::max(most, entry.totals.bytes);
  }
  const int cell = 72;
  std::string body = label(5, 14, "source \\ destination");
  for (const auto& [device, position] : index) {
    body += label(kLabelWidth + static_cast<double>(position) * cell + cell / 2.0, 14, fmt::format("GPU {}", device),
                  "middle");
    body += label(5, 20 + static_cast<double>(position) * cell + cell / 2.0, fmt::format("GPU {}", device));
    for (std::size_t column = 0; column < index.size(); ++column) {
      body += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\" fill=\"#fff\" stroke=\"#ccc\"/>",
                          kLabelWidth + static_cast<double>(column) * cell, 20 + static_cast<double>(position) * cell,
                          cell, cell);
    }
  }
  for (const auto& entry : entries) {
    const double x = kLabelWidth + static_cast<double>(index[entry.dst_device]) * cell;
    const double y = 20 + static_cast<double>(index[entry.src_device]) * cell;
    const bool same = entry.src_device == entry.dst_device;
    const auto& totals = entry.totals;
    const double share = static_cast<double>(totals.bytes) / static_cast<double>(most);
    const int shade = 235 - static_cast<int>(share * 150.0);
    const auto color = same ? std::string(kSameDeviceColor) : fmt::format("rgb({},{},245)", shade, shade + 10);
    const char* ink = !same && share > 0.6 ? "#fff" : "#222";
    body += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#999\"><title>{}</title></rect>",
        x, y, cell, cell, color,
        escape_html(fmt::format("{}: {} in {} cop{}, {}, {:.2f} GB/s",
                                same ? fmt::format("within GPU {}", entry.src_device)
                                     : fmt::format("GPU {} -> GPU {}", entry.src_device, entry.dst_device),
                                units::format_bytes(totals.bytes), totals.count, totals.count == 1 ? "y" : "ies",
                                units::format_duration(totals.total_ns), totals.gigabytes_per_second())));
    if (same) body += label(x + cell / 2.0, y + cell / 2.0 - 6, "same GPU", "middle", "#666");
    body += label(x + cell / 2.0, y + cell / 2.0 + 8, units::format_bytes(totals.bytes), "middle", ink);
    body += label(x + cell / 2.0, y + cell / 2.0 + 21, fmt::format("{:.1f} GB/s", totals.gigabytes_per_second()),
                  "middle", ink);
  }
  return svg(static_cast<int>(30 + index.size() * cell), body);
}

std::string step_chart(const analysis::RankAnalysis& rank) {
  if (rank.steps.empty()) return "<p>No steps.</p>\n";
  std::int64_t first = rank.steps.front().step.start_ns, last = rank.steps.front().step.end_ns;
  for (const auto& entry : rank.steps) {
    first = std::min(first, entry.step.start_ns);
    last = std::max(last, entry.step.end_ns);
  }
  const double plot = kWidth - kLabelWidth - 40;  // room for the last tick's label
  const double span_ms = static_cast<double>(std::max<std::int64_t>(1, last - first)) / 1e6;
  const double high_ms = axis_high(span_ms);
  const auto x_of = [&](std::int64_t t) {
    return kLabelWidth + plot * (static_cast<double>(t - first) / 1e6) / high_ms;
  };
  std::string body;
  std::vector<std::int32_t> lanes;
  for (const auto& device : rank.devices) lanes.push_back(device.device);
  for (std::size_t lane = 0; lane < lanes.size(); ++lane) {
    const double y = 5 + static_cast<double>(lane) * 24;
    body += label(5, y + 13, fmt::format("GPU {}", lanes[lane]));
    for (const auto& entry : rank.steps) {
      if (entry.step.device != lanes[lane]) continue;
      body += rect(x_of(entry.step.start_ns), y, x_of(entry.step.end_ns) - x_of(entry.step.start_ns) - 0.5, 18,
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
  body = x_axis(kLabelWidth, plot, 2, bottom, span_ms, " ms") + body;
  body += label(5, bottom + 13, "ms from first step", "start", "#555");
  body += legend(bottom + kAxisHeight - 6,
                 {{"step", kComputeColor}, {"warm-up step", kIdleColor}, {"batch gap", kWarningColor}});
  return svg(static_cast<int>(bottom + kAxisHeight + 16), body);
}

namespace {

// One lane of a step chart: a series whose values hold until the next point, scaled to its own peak.
struct StepLane {
  std::string title, subtitle, tooltip;
  std::vector<std::pair<std::int64_t, std::int64_t>> points;  // time, value; at least one
  std::int64_t peak = 1;
};

std::string step_line(const StepLane& lane, double y, double height, const std::function<double(std::int64_t)>& x_of) {
  const double peak = static_cast<double>(std::max<std::int64_t>(1, lane.peak));
  const auto y_of = [&](std::int64_t value) { return y + height - height * static_cast<double>(value) / peak; };
  const auto& points = lane.points;
  std::string path = fmt::format("M{:.1f},{:.1f}", x_of(points.front().first), y_of(points.front().second));
  for (std::size_t i = 1; i < points.size(); ++i) {
    path += fmt::format("H{:.1f}V{:.1f}", x_of(points[i].first), y_of(points[i].second));
  }
  return fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"><title>{}</title></path>",
                     path, kComputeColor, escape_html(lane.tooltip));
}

// Lanes on one time axis, from the earliest point of any lane to the latest.
std::string step_lanes_chart(const std::vector<StepLane>& lanes, const std::string& axis_caption) {
  std::int64_t first = INT64_MAX, last = INT64_MIN;
  for (const auto& lane : lanes) {
    first = std::min(first, lane.points.front().first), last = std::max(last, lane.points.back().first);
  }
  const double plot = kWidth - kLabelWidth - 40;  // room for the last tick's label
  const double span_ms = static_cast<double>(std::max<std::int64_t>(1, last - first)) / 1e6;
  const double high_ms = axis_high(span_ms);
  const auto x_of = [&](std::int64_t t) {
    return kLabelWidth + plot * (static_cast<double>(t - first) / 1e6) / high_ms;
  };
  constexpr double kLane = 64, kLine = 52;
  std::string body;
  double y = 5;
  for (const auto& lane : lanes) {
    body += label(5, y + 13, lane.title);
    body += label(5, y + 27, lane.subtitle, "start", "#555");
    body += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ccc\"/>", kLabelWidth,
                        y + kLine, kLabelWidth + plot, y + kLine);
    body += step_line(lane, y, kLine, x_of);
    y += kLane;
  }
  body = x_axis(kLabelWidth, plot, 2, y, span_ms, " ms") + body;
  body += label(5, y + 13, axis_caption, "start", "#555");
  return svg(static_cast<int>(y + kAxisHeight), body);
}

template <typename Point, typename Value>
std::vector<std::pair<std::int64_t, std::int64_t>> as_pairs(const std::vector<Point>& points, Value Point::*value) {
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs;
  pairs.reserve(points.size());
  for (const auto& point : points) pairs.emplace_back(point.time_ns, point.*value);
  return pairs;
}

}  // namespace

std::string memory_chart(const analysis::RankAnalysis& rank) {
  std::vector<StepLane> lanes;
  for (const auto& device : rank.memory.devices) {
    if (device.timeline.empty()) continue;
    lanes.push_back({fmt::format("GPU {}", device.device), "peak " + units::format_bytes(device.peak_bytes),
                     fmt::format("GPU {}: peak {}, final {} ({})", device.device,
                                 units::format_bytes(device.peak_bytes), units::format_bytes(device.final_bytes),
                                 memory::to_string(device.source)),
                     as_pairs(device.timeline, &memory::MemoryPoint::bytes), device.peak_bytes});
  }
  if (lanes.empty()) return "<p>Not recorded: no allocation events.</p>\n";
  return step_lanes_chart(lanes, "ms from first event");
}

std::string launch_queue_chart(const analysis::RankAnalysis& rank) {
  std::vector<StepLane> lanes;
  for (const auto& queue : rank.host.launch_queues) {
    if (queue.series.empty()) continue;
    lanes.push_back({fmt::format("GPU {}", queue.device), fmt::format("at most {}", queue.max_depth),
                     fmt::format("GPU {}: kernels launched and not yet started; at most {}, mean {:.2f}, empty "
                                 "{:.1f}% of the time",
                                 queue.device, queue.max_depth, queue.mean_depth, 100 * queue.share_empty),
                     as_pairs(queue.series, &summaries::QueuePoint::depth), queue.max_depth});
  }
  if (lanes.empty()) return "<p>No kernel with a known launching call.</p>\n";
  return step_lanes_chart(lanes, "ms from first launch");
}

std::string top_kernels_chart(const analysis::RankAnalysis& rank, std::size_t count) {
  const auto& kernels = rank.kernels.kernels;
  if (kernels.empty()) return "<p>No kernels.</p>\n";
  const auto shown = std::min(count, kernels.size());
  const auto labels = analysis::kernel_labels(kernels, false);  // as the kernel table names the rows
  const double name_width = 300, plot = kWidth - name_width - 130;
  const double high_ms = axis_high(static_cast<double>(kernels.front().stats.total_ns) / 1e6);
  std::string body;
  for (std::size_t i = 0; i < shown; ++i) {
    const auto& row = kernels[i];
    const double y = 5 + static_cast<double>(i) * 22;
    const auto& row_label = labels[i];
    // Long names lose their middle, not the number that tells rows apart.
    const auto name =
        row_label.size() > 44 ? row_label.substr(0, 20) + "..." + row_label.substr(row_label.size() - 21) : row_label;
    body += fmt::format("<text x=\"5\" y=\"{:.1f}\" font-size=\"11\">{}<title>{}</title></text>", y + 12,
                        escape_html(name), escape_html(row.name));
    const double width = plot * (static_cast<double>(row.stats.total_ns) / 1e6) / high_ms;
    body += rect(name_width, y, width, 16, row.category == "communication" ? kCommColor : kComputeColor,
                 fmt::format("{}: {} ({:.1f}%)", row.name, units::format_duration(row.stats.total_ns), row.percent));
    body += label(name_width + width + 4, y + 12,
                  fmt::format("{} ({:.1f}%)", units::format_duration(row.stats.total_ns), row.percent));
  }
  const double bottom = 5 + static_cast<double>(shown) * 22;
  body = x_axis(name_width, plot, 2, bottom, static_cast<double>(kernels.front().stats.total_ns) / 1e6, " ms") + body;
  body += legend(bottom + kAxisHeight - 6, {{"computation", kComputeColor}, {"communication", kCommColor}});
  return svg(static_cast<int>(bottom + kAxisHeight + 16), body);
}

}  // namespace gpuprof::report
