// Text, Markdown and CSV: the same tables, three layouts. Markdown and CSV are report's writers (one escaping);
// the text layout is the study's own: parts that repeat the naming columns and a wrapping last column.

#include <fmt/format.h>

#include <algorithm>

#include "gpuprof/report/table_rendering.hpp"
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

// Numbers read best right-aligned; a column is numeric when every cell in it is a figure.
bool numeric_column(const Table& table, std::size_t column) {
  return std::all_of(table.rows.begin(), table.rows.end(), [&](const auto& row) { return row[column].numeric; });
}

Table with_columns(const Table& table, const std::vector<std::size_t>& columns, const std::string& title) {
  Table part{table.section, table.id, title, {}, {}};
  for (const auto column : columns) part.columns.push_back(table.columns[column]);
  for (const auto& row : table.rows) {
    std::vector<report::Cell> cells;
    for (const auto column : columns) cells.push_back(row[column]);
    part.rows.push_back(std::move(cells));
  }
  return part;
}

// A column whose every cell is "-" says nothing on a screen (CSV and JSON keep it).
Table without_empty_columns(const Table& table) {
  if (table.rows.empty()) return table;
  std::vector<std::size_t> kept;
  for (std::size_t column = 0; column < table.columns.size(); ++column) {
    if (std::any_of(table.rows.begin(), table.rows.end(), [&](const auto& row) { return row[column].text != "-"; })) {
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
  for (const auto& header : table.columns) widths.push_back(display_width(header));
  for (const auto& row : table.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i].text));
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
    const bool names_row = std::find(naming.begin(), naming.end(), table.columns[column]) != naming.end();
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

std::string aligned_table(const Table& table, std::size_t width = 0) {
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
  out += line(table.columns, true);
  for (const auto& row : table.rows) {
    std::vector<std::string> texts;
    for (const auto& cell : row) texts.push_back(cell.text);
    out += line(texts, false);
  }
  return out;
}

// Text and Markdown go to terminals: a failure line or a configuration name
// from the study file keeps no escape or C1 control (clean_utf8 leaves C1).
Table printable_table(Table table) {
  for (auto& header : table.columns) header = printable(header);
  for (auto& row : table.rows) {
    for (auto& cell : row) cell.text = printable(cell.text);
  }
  return table;
}

}  // namespace

std::string render_study_text(const StudyReport& report, bool wide) {
  std::string out = printable(report.title) + "\n\n";
  for (const auto& raw : study_tables(report)) {
    const auto table = printable_table(raw);
    if (wide) {
      out += aligned_table(table) + "\n";
      continue;
    }
    for (const auto& part : fitted_parts(without_empty_columns(table), kTextWidth)) {
      out += aligned_table(part, kTextWidth) + "\n";
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
  // report's table: its escaping (pipes, markup, emphasis, line breaks); without its leading blank line.
  for (const auto& table : study_tables(report)) out += report::markdown_table(printable_table(table)).substr(1) + "\n";
  for (const auto& notice : report.notices) out += "> " + printable(notice) + "\n";
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
