#include <fmt/format.h>

#include "escaping.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "job_notes.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "summary_layout.hpp"
#include "svg_charts.hpp"
#include "gpuprof/report/report_summary.hpp"

namespace gpuprof::report {
namespace {

std::string charts(const ReportInput& input) {
  std::string out;
  if (input.has(Section::devices)) out += "<h2>Time breakdown</h2>\n" + breakdown_chart(input);
  for (const auto& rank : input.ranks) {
    const auto heading = fmt::format(" (rank {})", rank.rank);
    if (input.has(Section::transfers)) out += "<h2>Device-to-device copies" + heading + "</h2>\n" + transfer_matrix_chart(rank);
    if (input.has(Section::steps)) out += "<h2>Steps and batch gaps" + heading + "</h2>\n" + step_chart(rank);
    if (input.has(Section::kernels)) out += "<h2>Top kernels" + heading + "</h2>\n" + top_kernels_chart(rank, 10);
  }
  return out;
}

std::string summary_html(const ReportInput& input) {
  const auto layout = layout_summary(summarize_report(input));
  const auto item = [](const SummaryLine& line) {
    return fmt::format("<li><b>{}:</b> {}</li>\n", escape_html(line.label), escape_html(line.text));
  };
  std::string out = fmt::format("<section class=\"summary\">\n<h2>{}</h2>\n<ul>\n{}</ul>\n",
                                escape_html(layout.title), item(layout.period));
  out += html_table(layout.split) + "<ul>\n";
  for (const auto& line : layout.findings) out += item(line);
  return out + "</ul>\n</section>\n";
}

}  // namespace

std::string render_html(const ReportInput& input) {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gpuprof report</title>"
      "<style>{}</style></head><body>\n<h1>gpuprof report</h1>\n<ul>\n", html_style());
  for (const auto& rank : input.ranks) {
    out += fmt::format("<li>rank {}: <code>{}</code></li>\n", rank.rank, escape_html(rank.path));
  }
  out += "</ul>\n";
  for (const auto& rank : input.ranks) {
    for (const auto& warning : rank.warnings) {
      out += fmt::format("<p class=\"warning\">rank {}: {}</p>\n", rank.rank, escape_html(warning));
    }
    for (const auto& notice : rank.notices) {
      out += fmt::format("<p class=\"note\">rank {}: {}</p>\n", rank.rank, escape_html(notice));
    }
  }
  out += job_notes(input, [](const std::string& note) {
    return fmt::format("<p class=\"note\">{}</p>\n", escape_html(note));
  });
  if (input.has(Section::summary)) out += summary_html(input);
  out += charts(input);
  out += "<h2>Tables</h2>\n";
  for (const auto& table : build_tables(input, table_view(Format::html, input))) out += html_table(table);
  return out + html_script() + "</body></html>\n";
}

}  // namespace gpuprof::report
