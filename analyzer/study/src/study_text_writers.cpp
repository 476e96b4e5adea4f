// Text, Markdown and CSV: the same tables, three layouts.

#include <fmt/format.h>

#include <algorithm>

#include "gpuprof/study/study_writers.hpp"
#include "study_tables.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::study {
namespace {

// Columns are aligned by characters, not bytes: cells hold ±, ∞, µ.
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string pad(const std::string& text, std::size_t width, bool right) {
  const std::string fill(width > display_width(text) ? width - display_width(text) : 0, ' ');
  return right ? fill + text : text + fill;
}

// Numbers read best right-aligned; a column is numeric when its cells start with a digit, sign or dash.
bool numeric_column(const Table& table, std::size_t column) {
  return std::all_of(table.rows.begin(), table.rows.end(), [&](const auto& row) {
    const auto& cell = row[column];
    return !cell.empty() && (std::isdigit(static_cast<unsigned char>(cell[0])) || cell[0] == '-' || cell[0] == '+');
  });
}

std::string text_table(const Table& table) {
  std::vector<std::size_t> widths;
  for (const auto& header : table.headers) widths.push_back(display_width(header));
  for (const auto& row : table.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  }
  std::string out = table.title + "\n";
  const auto line = [&](const std::vector<std::string>& cells, bool header) {
    std::string text;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      text += (i ? "  " : "") + pad(cells[i], widths[i], !header && numeric_column(table, i));
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text + "\n";
  };
  out += line(table.headers, true);
  for (const auto& row : table.rows) out += line(row, false);
  return out;
}

std::string markdown_cell(const std::string& text) {
  std::string escaped;
  for (const char c : text) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
  return escaped;
}

std::string markdown_table(const Table& table) {
  std::string out = "## " + table.title + "\n\n|";
  for (const auto& header : table.headers) out += " " + markdown_cell(header) + " |";
  out += "\n|";
  for (std::size_t i = 0; i < table.headers.size(); ++i) out += numeric_column(table, i) ? " ---: |" : " --- |";
  out += "\n";
  for (const auto& row : table.rows) {
    out += "|";
    for (const auto& cell : row) out += " " + markdown_cell(cell) + " |";
    out += "\n";
  }
  return out;
}

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string csv_line(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + csv_cell(cells[i]);
  return line + "\n";
}

}  // namespace

std::string render_study_text(const StudyReport& report) {
  std::string out = report.title + "\n\n";
  for (const auto& table : study_tables(report)) out += text_table(table) + "\n";
  for (const auto& notice : report.notices) out += "note: " + notice + "\n";
  return out;
}

std::string render_study_markdown(const StudyReport& report) {
  std::string out = "# " + report.title + "\n\n";
  for (const auto& table : study_tables(report)) out += markdown_table(table) + "\n";
  for (const auto& notice : report.notices) out += "> " + notice + "\n";
  return out;
}

std::string render_study_csv(const StudyReport& report) {
  std::string out;
  for (const auto& table : study_tables(report)) {
    out += (out.empty() ? "# " : "\n# ") + table.id + "\n" + csv_line(table.headers);
    for (const auto& row : table.rows) out += csv_line(row);
  }
  return out;
}

std::optional<StudyFormat> study_format_from_string(std::string_view name) {
  if (name == "text") return StudyFormat::text;
  if (name == "md" || name == "markdown") return StudyFormat::markdown;
  if (name == "csv") return StudyFormat::csv;
  if (name == "json") return StudyFormat::json;
  if (name == "html") return StudyFormat::html;
  return std::nullopt;
}

namespace {
std::string render_format(StudyFormat format, const StudyReport& report) {
  switch (format) {
    case StudyFormat::text: return render_study_text(report);
    case StudyFormat::markdown: return render_study_markdown(report);
    case StudyFormat::csv: return render_study_csv(report);
    case StudyFormat::json: return render_study_json(report);
    case StudyFormat::html: return render_study_html(report);
  }
  return {};
}
}  // namespace

// Kernel names come from trace files: whatever bytes they hold, the output is valid UTF-8.
std::string render_study(StudyFormat format, const StudyReport& report) {
  return clean_utf8(render_format(format, report));
}

}  // namespace gpuprof::study
