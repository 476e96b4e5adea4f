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
  out += "<table class=\"sortable\"><thead><tr>";
  for (const auto& column : table.columns) out += "<th>" + escape_html(column) + "</th>";
  out += "</tr></thead><tbody>\n";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (const auto& cell : row) {
      // Numeric cells carry their raw value, so the sort script orders 9 ms before 10 ms.
      out += cell.numeric ? fmt::format("<td class=\"n\" data-v=\"{}\">{}</td>", escape_html(cell.raw),
                                        escape_html(cell.text))
                          : fmt::format("<td>{}</td>", escape_html(cell.text));
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

const char* html_style() {
  return "body{font-family:system-ui,sans-serif;margin:24px;color:#222}"
         "table{border-collapse:collapse;margin:8px 0 24px;font-size:13px}"
         "th,td{border:1px solid #ccc;padding:3px 8px}td.n{text-align:right;font-variant-numeric:tabular-nums}"
         "th{background:#f0f0f0}.note{background:#fff3cd;padding:6px 10px;border-left:4px solid #e15759}"
         ".warning{background:#f8d7da;padding:6px 10px;border-left:4px solid #b02a37;font-weight:bold}"
         "th{cursor:pointer}th[data-dir=asc]:after{content:' \\25B2'}th[data-dir=desc]:after{content:' \\25BC'}"
         "input.filter{margin:4px 0;padding:2px 6px;font-size:12px;width:240px}"
         "svg text{font-family:system-ui,sans-serif}";
}

// Inline (the documents stay offline and self-contained): a filter box above each table,
// and headers that sort by the raw value of numeric cells, by text otherwise.
const char* html_script() {
  return "<script>\n"
         "document.querySelectorAll('table.sortable').forEach(function(table){\n"
         "  var body=table.tBodies[0];\n"
         "  var filter=document.createElement('input');\n"
         "  filter.className='filter';filter.placeholder='filter rows';\n"
         "  table.parentNode.insertBefore(filter,table);\n"
         "  filter.addEventListener('input',function(){\n"
         "    var wanted=filter.value.toLowerCase();\n"
         "    Array.prototype.forEach.call(body.rows,function(row){\n"
         "      row.style.display=row.textContent.toLowerCase().indexOf(wanted)<0?'none':'';});});\n"
         "  Array.prototype.forEach.call(table.tHead.rows[0].cells,function(header,column){\n"
         "    header.title='click to sort';\n"
         "    header.addEventListener('click',function(){\n"
         "      var ascending=header.dataset.dir!=='asc';\n"
         "      Array.prototype.forEach.call(table.tHead.rows[0].cells,function(h){delete h.dataset.dir;});\n"
         "      header.dataset.dir=ascending?'asc':'desc';\n"
         "      var number=function(cell){var v=parseFloat(cell.dataset.v);return isNaN(v)?-Infinity:v;};\n"
         "      var rows=Array.prototype.slice.call(body.rows);\n"
         "      rows.sort(function(a,b){\n"
         "        var x=a.cells[column],y=b.cells[column];\n"
         "        var order=x.dataset.v!==undefined&&y.dataset.v!==undefined?number(x)-number(y)\n"
         "                 :x.textContent.localeCompare(y.textContent);\n"
         "        return ascending?order:-order;});\n"
         "      rows.forEach(function(row){body.appendChild(row);});});});});\n"
         "</script>\n";
}

}  // namespace gpuprof::report
