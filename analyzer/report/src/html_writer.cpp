#include <fmt/format.h>

#include "escaping.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "grouped_notes.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "summary_layout.hpp"
#include "svg_charts.hpp"
#include "gpuprof/report/report_summary.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::report {
namespace {

// What the summary's windows are: steady step periods, or activity spans where no device has steps.
std::string windows_scope(const ReportInput& input) {
  for (const auto& rank : input.ranks) {
    for (const auto& device : rank.devices) {
      if (device.source == analysis::WindowSource::steps) return "steady step periods";
    }
  }
  return "activity spans, no steps";
}

std::string rank_charts(const ReportInput& input) {
  std::string out;
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

// The breakdown over every device first; for a job, its table of ranks next, and the per-rank charts folded
// away below it beyond a few ranks, so that the first screen compares the ranks instead of opening on rank 0's
// charts.
std::string charts(const ReportInput& input, const std::vector<Table>& tables) {
  std::string out;
  if (input.has(Section::devices)) {
    out += fmt::format("<h2>Time breakdown ({}, as the cards above)</h2>\n{}", windows_scope(input),
                       breakdown_chart(input));
  }
  if (input.ranks.size() <= 1) return out + rank_charts(input);
  for (const auto& table : tables) {
    if (table.section == Section::job) out += html_table(table);
  }
  const auto per_rank = rank_charts(input);
  if (input.ranks.size() <= kListedRankFiles) return out + per_rank;  // a few ranks stay open
  if (!per_rank.empty()) {
    out += fmt::format("<details><summary>Charts per rank ({} ranks)</summary>\n{}</details>\n", input.ranks.size(),
                       per_rank);
  }
  return out;
}

std::string rank_list(const ReportInput& input) {
  std::string items;
  for (const auto& rank : input.ranks) {
    items += fmt::format("<li>rank {}: <code>{}</code></li>\n", rank.rank, escape_html(rank.path));
  }
  if (input.ranks.size() <= kListedRankFiles) return "<ul>\n" + items + "</ul>\n";
  return fmt::format("<details><summary>{} rank files</summary><ul>\n{}</ul></details>\n", input.ranks.size(), items);
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
  std::string out = fmt::format("<section class=\"summary\">\n<h2>{}</h2>\n{}<ul>\n{}", escape_html(layout.title),
                                summary_cards(summary), item(layout.answer));
  for (const auto& line : layout.advice) out += item(line);
  out += item(layout.period) + "</ul>\n";
  out += html_table(layout.split);
  if (!layout.idle.rows.empty()) out += html_table(layout.idle);
  out += "<ul>\n";
  for (const auto& line : layout.findings) out += item(line);
  return out + "</ul>\n</section>\n";
}

}  // namespace

std::string render_html(const ReportInput& input) {
  std::string out = html_page_start("gpuprof report");
  out += rank_list(input);
  for (const auto& note : grouped_notes(input)) {
    out += fmt::format("<p class=\"{}\">{}{}</p>\n", note.warning ? "warning" : "note",
                       note.ranks.empty() ? std::string() : escape_html(note.ranks) + ": ", escape_html(note.text));
  }
  if (input.has(Section::summary)) out += summary_html(input);
  const auto tables = build_tables(input, table_view(Format::html, input));
  out += charts(input, tables);
  out += "<h2>Tables</h2>\n";
  for (const auto& table : tables) {
    if (input.ranks.size() <= 1 || table.section != Section::job) out += html_table(table);
  }
  return out + html_page_end();
}

}  // namespace gpuprof::report
