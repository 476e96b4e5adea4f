#include <fmt/format.h>

#include "escaping.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "job_notes.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "summary_layout.hpp"
#include "svg_charts.hpp"
#include "gpuprof/report/report_summary.hpp"
#include "gpuprof/units/units.hpp"

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
    if (input.has(Section::memory)) out += "<h2>GPU memory in use" + heading + "</h2>\n" + memory_chart(rank);
    if (input.has(Section::launches)) {
      out += "<h2>Launch queue" + heading + "</h2>\n" + launch_queue_chart(rank);
    }
  }
  return out;
}

// One card per headline figure, above the summary's sentences: the step period, the share of each part of it
// (in the charts' colours) and the data loss, readable at a glance when the document is opened.
std::string summary_cards(const ReportSummary& summary) {
  const auto card = [](const std::string& colour, const std::string& label, const std::string& value,
                       const std::string& detail) {
    return fmt::format("<div class=\"card\" style=\"border-top-color:{}\"><div class=\"label\">{}</div>"
                       "<div class=\"value\">{}</div><div class=\"detail\">{}</div></div>\n",
                       colour, escape_html(label), escape_html(value), escape_html(detail));
  };
  const auto& period = summary.period;
  std::string out = "<div class=\"cards\">\n";
  out += period.from_steps
             ? card("#222", "step period", duration(period.step_ns),
                    fmt::format("mean over {} steady step periods", period.windows))
             : card("#222", "step period", "no steps",
                    fmt::format("activity spans, {} in all", units::format_duration(period.window_ns)));
  for (const auto& part : period.parts) {
    const auto time =
        period.from_steps ? duration(part.per_step_ns) + " per step" : units::format_duration(part.total_ns);
    out += card(part_color(part.kind), std::string(to_string(part.kind)), fmt::format("{:.1f}%", 100 * part.share),
                time);
  }
  const auto& loss = summary.data_loss;
  out += card(loss.warnings == 0 ? "#59a14f" : "#b02a37", "data loss",
              loss.warnings == 0 ? std::string("none") : fmt::format("{} warning{}", loss.warnings,
                                                                    loss.warnings == 1 ? "" : "s"),
              loss.warnings == 0 ? "recorded" : "totals may undercount");
  return out + "</div>\n";
}

std::string summary_html(const ReportInput& input) {
  const auto summary = summarize_report(input);
  const auto layout = layout_summary(summary);
  const auto item = [](const SummaryLine& line) {
    return fmt::format("<li><b>{}:</b> {}</li>\n", escape_html(line.label), escape_html(line.text));
  };
  std::string out = fmt::format("<section class=\"summary\">\n<h2>{}</h2>\n{}<ul>\n{}</ul>\n",
                                escape_html(layout.title), summary_cards(summary), item(layout.period));
  out += html_table(layout.split);
  if (!layout.idle.rows.empty()) out += html_table(layout.idle);
  out += "<ul>\n";
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
