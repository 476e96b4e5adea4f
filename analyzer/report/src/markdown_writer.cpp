#include <fmt/format.h>

#include "escaping.hpp"
#include "gpuprof/report/report_summary.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "grouped_notes.hpp"
#include "summary_layout.hpp"

namespace gpuprof::report {
namespace {

std::string bullet(const SummaryLine& line) {
  return fmt::format("- **{}:** {}\n", escape_markdown_cell(line.label), escape_markdown_cell(line.text));
}

std::string summary_markdown(const ReportInput& input) {
  const auto layout = layout_summary(summarize_report(input));
  std::string out = fmt::format("\n## {}\n\n", escape_markdown_cell(layout.title)) + bullet(layout.answer);
  for (const auto& line : layout.advice) out += bullet(line);
  out += bullet(layout.period);
  // A level-3 heading: the table belongs to the summary, not a section of its own.
  out += "\n#" + markdown_table(layout.split).substr(1) + "\n";
  if (!layout.idle.rows.empty()) out += "\n#" + markdown_table(layout.idle).substr(1) + "\n";
  for (const auto& line : layout.findings) out += bullet(line);
  return out;
}

}  // namespace

std::string render_markdown(const ReportInput& input) {
  std::string out = "# gpuprof report\n\n";
  for (const auto& rank : input.ranks) {
    out += fmt::format("- rank {}: `{}`\n", rank.rank, escape_markdown_cell(rank.path));
  }
  for (const auto& note : grouped_notes(input)) {
    out += fmt::format("- **{}{}:** {}\n", note.warning ? "Warning" : "Note",
                       note.ranks.empty() ? std::string() : " (" + note.ranks + ")", escape_markdown_cell(note.text));
  }
  if (input.has(Section::summary)) out += summary_markdown(input);
  for (const auto& table : build_tables(input, table_view(Format::markdown, input))) out += markdown_table(table);
  return out;
}

}  // namespace gpuprof::report
