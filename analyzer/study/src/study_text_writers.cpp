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

Table with_columns(const Table& table, const std::vector<std::size_t>& columns, const std::string& title) {
  Table part{table.id, title, {}, {}};
  for (const auto column : columns) part.headers.push_back(table.headers[column]);
  for (const auto& row : table.rows) {
    std::vector<std::string> cells;
    for (const auto column : columns) cells.push_back(row[column]);
    part.rows.push_back(std::move(cells));
  }
  return part;
}

// A column whose every cell is "-" says nothing on a screen (CSV and JSON keep it).
Table without_empty_columns(const Table& table) {
  if (table.rows.empty()) return table;
  std::vector<std::size_t> kept;
  for (std::size_t column = 0; column < table.headers.size(); ++column) {
    if (std::any_of(table.rows.begin(), table.rows.end(), [&](const auto& row) { return row[column] != "-"; })) {
      kept.push_back(column);
    }
  }
  return with_columns(table, kept, table.title);
}

// The last cell of a line past `width` wraps at its spaces, the rest of it aligned under its start.
std::string wrapped_line(const std::string& line, std::size_t last_column_start, std::size_t width) {
  if (display_width(line) <= width || last_column_start + 20 > width) return line + "\n";
  const std::string indent(last_column_start, ' ');
  std::string out = line.substr(0, last_column_start), current;
  std::size_t position = last_column_start;
  const auto flush = [&] {
    out += current + "\n";
    current.clear();
  };
  while (position < line.size()) {
    auto space = line.find(' ', position);
    if (space == std::string::npos) space = line.size();
    const std::string word = line.substr(position, space - position);
    if (!current.empty() && last_column_start + display_width(current) + 1 + display_width(word) > width) {
      flush();
      out += indent;
    }
    current += (current.empty() ? "" : " ") + word;
    position = space + 1;
  }
  if (!current.empty()) flush();
  return out;
}

std::vector<std::size_t> column_widths(const Table& table) {
  std::vector<std::size_t> widths;
  for (const auto& header : table.headers) widths.push_back(display_width(header));
  for (const auto& row : table.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  }
  return widths;
}

// A table too wide for `width` whose last column cannot wrap (numbers) is split into
// parts that each repeat the columns naming a row (model, batch, GPUs, strategy).
std::vector<Table> fitted_parts(const Table& table, std::size_t width) {
  const auto widths = column_widths(table);
  std::size_t total = 0;
  for (const auto w : widths) total += w + 2;
  const std::size_t last = widths.size() - 1;
  if (total <= width + 2 || widths.size() < 2 ||
      (!numeric_column(table, last) && total - widths[last] - 2 + 20 <= width)) {
    return {table};
  }
  static const std::vector<std::string> naming = {"Model", "Batch", "GPUs", "Strategy", "Configuration"};
  std::vector<std::size_t> key, rest;
  for (std::size_t column = 0; column < widths.size(); ++column) {
    const bool names_row = std::find(naming.begin(), naming.end(), table.headers[column]) != naming.end();
    (names_row ? key : rest).push_back(column);
  }
  if (key.empty()) key.push_back(0), rest.erase(rest.begin());
  std::size_t key_width = 0;
  for (const auto column : key) key_width += widths[column] + 2;
  std::vector<Table> parts;
  std::vector<std::size_t> columns = key;
  std::size_t used = key_width;
  for (const auto column : rest) {
    if (columns.size() > key.size() && used + widths[column] > width) {
      parts.push_back(with_columns(table, columns, parts.empty() ? table.title : table.title + " (continued)"));
      columns = key, used = key_width;
    }
    columns.push_back(column), used += widths[column] + 2;
  }
  parts.push_back(with_columns(table, columns, parts.empty() ? table.title : table.title + " (continued)"));
  return parts;
}

std::string text_table(const Table& table, std::size_t width = 0) {
  const auto widths = column_widths(table);
  std::string out = width > 0 ? wrapped_line(table.title, 0, width) : table.title + "\n";
  std::size_t last_start = 0;
  for (std::size_t i = 0; i + 1 < widths.size(); ++i) last_start += widths[i] + 2;
  const auto line = [&](const std::vector<std::string>& cells, bool header) {
    std::string text;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      // A last column of text is not padded when it may wrap: its width is whatever is left.
      const bool last_wraps = width > 0 && i + 1 == cells.size() && !numeric_column(table, i);
      text += (i ? "  " : "") + (last_wraps ? cells[i] : pad(cells[i], widths[i], !header && numeric_column(table, i)));
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return width > 0 && !numeric_column(table, cells.size() - 1) ? wrapped_line(text, last_start, width)
                                                                   : text + "\n";
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

// Text and Markdown go to terminals: a failure line or a configuration name
// from the study file keeps no escape or C1 control (clean_utf8 leaves C1).
Table printable_table(Table table) {
  for (auto& header : table.headers) header = printable(header);
  for (auto& row : table.rows) {
    for (auto& cell : row) cell = printable(cell);
  }
  return table;
}

}  // namespace

std::string render_study_text(const StudyReport& report, bool wide) {
  std::string out = printable(report.title) + "\n\n";
  for (const auto& raw : study_tables(report)) {
    const auto table = printable_table(raw);
    if (wide) {
      out += text_table(table) + "\n";
      continue;
    }
    for (const auto& part : fitted_parts(without_empty_columns(table), kTextWidth)) {
      out += text_table(part, kTextWidth) + "\n";
    }
  }
  // A note wraps as the tables do, its lines aligned after "note: ".
  for (const auto& notice : report.notices) {
    out += wide ? "note: " + printable(notice) + "\n" : wrapped_line("note: " + printable(notice), 6, kTextWidth);
  }
  return out;
}

std::string render_study_markdown(const StudyReport& report) {
  std::string out = "# " + printable(report.title) + "\n\n";
  for (const auto& table : study_tables(report)) out += markdown_table(printable_table(table)) + "\n";
  for (const auto& notice : report.notices) out += "> " + printable(notice) + "\n";
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
std::string render_format(StudyFormat format, const StudyReport& report, bool wide) {
  switch (format) {
    case StudyFormat::text: return render_study_text(report, wide);
    case StudyFormat::markdown: return render_study_markdown(report);
    case StudyFormat::csv: return render_study_csv(report);
    case StudyFormat::json: return render_study_json(report);
    case StudyFormat::html: return render_study_html(report);
  }
  return {};
}
}  // namespace

// Kernel names come from trace files: whatever bytes they hold, the output is valid UTF-8.
std::string render_study(StudyFormat format, const StudyReport& report, bool wide) {
  return clean_utf8(render_format(format, report, wide));
}

}  // namespace gpuprof::study
