#include <fmt/format.h>

#include "escaping.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "svg_charts.hpp"

namespace gpuprof::report {
namespace {

constexpr const char* kStyle =
    "body{font-family:system-ui,sans-serif;margin:24px;color:#222}"
    "table{border-collapse:collapse;margin:8px 0 24px;font-size:13px}"
    "th,td{border:1px solid #ccc;padding:3px 8px}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "th{background:#f0f0f0}.note{background:#fff3cd;padding:6px 10px;border-left:4px solid #e15759}";

std::string html_table(const Table& table) {
  std::string out = fmt::format("<h3>{}</h3>\n", escape_html(table.title));
  if (table.rows.empty()) return out + "<p>(none)</p>\n";
  out += "<table><tr>";
  for (const auto& column : table.columns) out += "<th>" + escape_html(column) + "</th>";
  out += "</tr>\n";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (const auto& cell : row) {
      out += fmt::format("<td{}>{}</td>", cell.numeric ? " class=\"n\"" : "", escape_html(cell.text));
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string charts(const ReportInput& input) {
  std::string out;
  if (input.has(Section::devices)) out += "<h2>Time breakdown</h2>\n" + breakdown_chart(input);
  for (const auto& rank : input.ranks) {
    const auto heading = fmt::format(" (rank {})", rank.rank);
    if (input.has(Section::transfers)) out += "<h2>GPU-to-GPU bytes" + heading + "</h2>\n" + transfer_matrix_chart(rank);
    if (input.has(Section::steps)) out += "<h2>Steps and batch gaps" + heading + "</h2>\n" + step_chart(rank);
    if (input.has(Section::kernels)) out += "<h2>Top kernels" + heading + "</h2>\n" + top_kernels_chart(rank, 10);
  }
  return out;
}

}  // namespace

std::string render_html(const ReportInput& input) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gpuprof report</title>"
      "<style>{}</style></head><body>\n<h1>gpuprof report</h1>\n<ul>\n", kStyle);
  for (const auto& rank : input.ranks) {
    out += fmt::format("<li>rank {}: <code>{}</code></li>\n", rank.rank, escape_html(rank.path));
  }
  out += "</ul>\n";
  for (const auto& rank : input.ranks) {
    for (const auto& notice : rank.notices) {
      out += fmt::format("<p class=\"note\">rank {}: {}</p>\n", rank.rank, escape_html(notice));
    }
  }
  out += charts(input);
  out += "<h2>Tables</h2>\n";
  for (const auto& table : build_tables(input)) out += html_table(table);
  return out + "</body></html>\n";
}

}  // namespace gpuprof::report
