#include "gpuprof/report/table_rendering.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "escaping.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::report {

std::string printable(const std::string& text) {
  std::string out = text;
  for (auto& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return out;
}

std::string text_table(const Table& table) {
  std::string out = fmt::format("{}\n\n", table.title);
  if (table.rows.empty()) return out + "  (none)\n\n";
  std::vector<std::size_t> widths(table.columns.size());
  for (std::size_t c = 0; c < table.columns.size(); ++c) widths[c] = table.columns[c].size();
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], printable(row[c].text).size());
  }
  const auto line = [&](const std::vector<std::string>& cells, const std::vector<bool>& right) {
    std::string text = " ";
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const bool last = c + 1 == cells.size();
      if (right[c]) text += fmt::format("{:>{}}", cells[c], widths[c]);
      else text += last ? cells[c] : fmt::format("{:<{}}", cells[c], widths[c]);
      if (!last) text += "  ";
    }
    out += text + "\n";
  };
  std::vector<bool> right(table.columns.size(), false);
  for (std::size_t c = 0; c < right.size(); ++c) right[c] = table.rows.front()[c].numeric;
  line(table.columns, right);
  std::vector<std::string> rules;
  for (const auto width : widths) rules.emplace_back(width, '-');
  line(rules, right);
  for (const auto& row : table.rows) {
    std::vector<std::string> cells;
    for (const auto& cell : row) cells.push_back(printable(cell.text));
    line(cells, right);
  }
  return out + "\n";
}

std::string markdown_table(const Table& table) {
  std::string out = fmt::format("\n## {}\n\n", table.title);
  if (table.rows.empty()) return out + "(none)\n";
  std::string header = "|", rule = "|";
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    header += " " + escape_markdown_cell(table.columns[c]) + " |";
    rule += table.rows.front()[c].numeric ? " ---: |" : " --- |";
  }
  out += header + "\n" + rule + "\n";
  for (const auto& row : table.rows) {
    std::string line = "|";
    for (const auto& cell : row) line += " " + escape_markdown_cell(cell.text) + " |";
    out += line + "\n";
  }
  return out;
}

std::string csv_table(const Table& table) {
  std::string out;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    out += (c ? "," : "") + escape_csv(table.columns[c], true);
  }
  out += "\n";
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + escape_csv(row[c].raw, !row[c].numeric);
    out += "\n";
  }
  return clean_utf8(out);  // also written on its own, one file per table
}

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

const char* html_style() {
  return "body{font-family:system-ui,sans-serif;margin:24px;color:#222}"
         "table{border-collapse:collapse;margin:8px 0 24px;font-size:13px}"
         "th,td{border:1px solid #ccc;padding:3px 8px}td.n{text-align:right;font-variant-numeric:tabular-nums}"
         "th{background:#f0f0f0}.note{background:#fff3cd;padding:6px 10px;border-left:4px solid #e15759}"
         ".warning{background:#f8d7da;padding:6px 10px;border-left:4px solid #b02a37;font-weight:bold}";
}

}  // namespace gpuprof::report
