// Text, Markdown and CSV: the same tables, three layouts, all report's writers (one escaping, one alignment).
// The study adds only what its screen leaves out: columns without a value.

#include <algorithm>

#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/study/study_writers.hpp"
#include "study_tables.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::study {
namespace {

// A column whose every cell is "-" says nothing on a screen (CSV and JSON keep it).
Table without_empty_columns(const Table& table) {
  if (table.rows.empty()) return table;
  std::vector<std::size_t> kept;
  for (std::size_t column = 0; column < table.columns.size(); ++column) {
    if (std::any_of(table.rows.begin(), table.rows.end(), [&](const auto& row) { return row[column].text != "-"; })) {
      kept.push_back(column);
    }
  }
  return report::with_columns(table, kept);
}

// The leading columns that name a row (model, batch, GPUs, strategy): each part of a table split to fit the
// screen repeats them.
std::size_t naming_columns(const Table& table) {
  static const std::vector<std::string> naming = {"Model", "Batch", "GPUs", "Strategy", "Configuration"};
  std::size_t count = 0;
  while (count < table.columns.size() &&
         std::find(naming.begin(), naming.end(), table.columns[count]) != naming.end()) {
    ++count;
  }
  return std::max<std::size_t>(count, 1);
}

}  // namespace

std::string render_study_text(const StudyReport& report, bool wide) {
  std::string out = printable(report.title) + "\n\n";
  for (const auto& table : study_tables(report)) {
    if (wide) {
      out += report::text_table(table);
      continue;
    }
    const auto shown = without_empty_columns(table);
    out += report::text_table(shown, report::TextLayout{kTextWidth, report::LongText::words, naming_columns(shown)});
  }
  // A note wraps as the tables do, its lines aligned after "note: ".
  for (const auto& notice : report.notices) {
    out += wide ? "note: " + printable(notice) + "\n" : report::wrap_text("note: ", "      ", printable(notice), kTextWidth);
  }
  return out;
}

std::string render_study_markdown(const StudyReport& report) {
  std::string out = "# " + report::escape_markdown_cell(report.title) + "\n\n";
  // report's table: its escaping (pipes, markup, emphasis, line breaks, control characters); without its leading
  // blank line.
  for (const auto& table : study_tables(report)) out += report::markdown_table(table).substr(1) + "\n";
  for (const auto& notice : report.notices) out += "> " + report::escape_markdown_cell(notice) + "\n";
  return out;
}

std::string render_study_csv(const StudyReport& report) {
  std::string out;
  for (const auto& table : study_tables(report)) {
    // report's table: RFC 4180 quoting, and a name a spreadsheet would run as a formula is defused.
    out += (out.empty() ? "# " : "\n# ") + table.id + "\n" + report::csv_table(table);
  }
  return out;
}

namespace {
std::string render_format(report::Format format, const StudyReport& report, bool wide) {
  switch (format) {
    case report::Format::text: return render_study_text(report, wide);
    case report::Format::markdown: return render_study_markdown(report);
    case report::Format::csv: return render_study_csv(report);
    case report::Format::json: return render_study_json(report);
    case report::Format::html: return render_study_html(report);
  }
  return {};
}
}  // namespace

// Kernel names come from trace files: whatever bytes they hold, the output is valid UTF-8.
std::string render_study(report::Format format, const StudyReport& report, bool wide) {
  return clean_utf8(render_format(format, report, wide));
}

}  // namespace gpuprof::study
