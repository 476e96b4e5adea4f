// One self-contained HTML page: notices, the throughput, speedup and breakdown charts as inline SVG, then the
// tables, written by report's HTML table writer (its escaping; numeric cells right-aligned and sorted by value).

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "gpuprof/study/study_writers.hpp"
#include "study_svg_plots.hpp"
#include "study_tables.hpp"

namespace gpuprof::study {
namespace {

// One series per GPU count, from the mean of each configuration.
template <typename Value>
std::vector<Series> series_by_gpus(const StudyReport& report, Value value) {
  std::map<std::int64_t, Series> by_gpus;
  for (const auto& row : report.rows) {
    const std::optional<double> y = value(row);
    if (!y) continue;
    auto& series = by_gpus[row.configuration.gpus];
    series.name = fmt::format("{} GPU{}", row.configuration.gpus, row.configuration.gpus == 1 ? "" : "s");
    series.points.emplace_back(static_cast<double>(row.configuration.batch), *y);
  }
  std::vector<Series> series;
  for (auto& [gpus, one] : by_gpus) {
    std::sort(one.points.begin(), one.points.end());
    series.push_back(std::move(one));
  }
  return series;
}

std::string throughput_chart(const StudyReport& report) {
  auto series = series_by_gpus(report, [](const ConfigurationRow& row) -> std::optional<double> {
    if (row.samples_per_second) return row.samples_per_second->mean;
    return std::nullopt;
  });
  if (series.empty()) return {};
  return svg_line_chart({"Throughput against batch size", "samples/s", std::move(series), std::nullopt, {}});
}

std::string speedup_chart(const StudyReport& report) {
  auto series = series_by_gpus(report, [](const ConfigurationRow& row) -> std::optional<double> {
    if (row.configuration.gpus > 1 && row.speedup) return row.speedup->mean;
    return std::nullopt;
  });
  if (series.empty()) return {};
  LineChart chart{"Speedup against 1 GPU", "speedup (1 GPU = 1.0)", std::move(series), 1.0, {}};
  for (const auto& row : report.break_evens) {
    if (row.point.kind == BreakEvenKind::breaks_even || row.point.kind == BreakEvenKind::faster_below) {
      chart.markers.emplace_back(row.point.batch, fmt::format("{} GPUs: {:.0f}", row.gpus, row.point.batch));
    }
  }
  return svg_line_chart(chart);
}

std::string breakdown_chart(const StudyReport& report) {
  std::vector<StackedBar> bars;
  for (const auto& row : report.rows) {
    if (!row.breakdown) continue;
    const auto& b = *row.breakdown;
    bars.push_back({fmt::format("batch {}, {} GPU{}", row.configuration.batch, row.configuration.gpus,
                                row.configuration.gpus == 1 ? "" : "s"),
                    {static_cast<double>(b.computation_ns), static_cast<double>(b.exposed_transfer_ns),
                     static_cast<double>(b.exposed_comm_ns), static_cast<double>(b.gaps_ns)}});
  }
  if (bars.empty()) return {};
  return svg_stacked_bars("Breakdown of GPU time", {"computation", "exposed transfer", "exposed comm", "gaps"}, bars);
}

}  // namespace

std::string render_study_html(const StudyReport& report) {
  std::string out =
      report::html_page_start(report.title, "svg{display:inline-block;vertical-align:top;margin:1em 1em 1em 0}");
  for (const auto& notice : report.notices) out += "<p class=\"note\">" + escape_html(notice) + "</p>\n";
  // The charts answer the question; the tables behind them follow.
  out += throughput_chart(report) + speedup_chart(report) + breakdown_chart(report);
  for (const auto& table : study_tables(report)) out += report::html_table(table);
  return out + report::html_page_end();
}

}  // namespace gpuprof::study
