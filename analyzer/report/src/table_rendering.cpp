#include "gpuprof/report/table_rendering.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <vector>

#include "escaping.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::report {

namespace {

bool continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Where the character number `characters` starts (the end when the text is shorter).
std::size_t byte_offset(std::string_view text, std::size_t characters) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (continuation_byte(text[i])) continue;
    if (seen++ == characters) return i;
  }
  return text.size();
}

std::string padded(const std::string& text, std::size_t width, bool right) {
  const auto shown = display_width(text);
  const std::string fill(width > shown ? width - shown : 0, ' ');
  return right ? fill + text : text + fill;
}

}  // namespace

std::size_t display_width(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) { return !continuation_byte(c); }));
}

std::string elide_middle(const std::string& text, std::size_t width) {
  constexpr std::string_view kEllipsis = "...";
  const auto length = display_width(text);
  if (length <= width) return text;
  if (width <= kEllipsis.size()) return std::string(kEllipsis.substr(0, width));
  const auto keep = width - kEllipsis.size();
  const auto head = byte_offset(text, (keep + 1) / 2);
  const auto tail = byte_offset(text, length - keep / 2);
  return text.substr(0, head) + std::string(kEllipsis) + text.substr(tail);
}

namespace {

// Units of units::format_duration and format_bytes: "3.00 us" reads badly split over two lines.
bool is_unit(std::string_view word) {
  while (!word.empty() && std::string_view(",.;:)").find(word.back()) != std::string_view::npos) word.remove_suffix(1);
  for (const std::string_view unit : {"ns", "us", "ms", "s", "B", "KiB", "MiB", "GiB", "TiB"}) {
    if (word == unit) return true;
  }
  return false;
}

// Words separated by spaces; a unit stays with the number before it.
std::vector<std::string> words_of(std::string_view text) {
  std::vector<std::string> words;
  std::size_t position = 0;
  while (position < text.size()) {
    if (text[position] == ' ') {
      ++position;
      continue;
    }
    auto end = text.find(' ', position);
    if (end == std::string_view::npos) end = text.size();
    const auto word = text.substr(position, end - position);
    if (is_unit(word) && !words.empty()) words.back() += " " + std::string(word);
    else words.emplace_back(word);
    position = end;
  }
  return words;
}

}  // namespace

std::string wrap_text(std::string_view first, std::string_view rest, std::string_view text, std::size_t width) {
  std::string out, line(first);
  bool line_has_word = false;
  const auto flush = [&] {
    out += line + "\n";
    line = std::string(rest);
    line_has_word = false;
  };
  for (const auto& whole : words_of(text)) {
    std::string_view word = whole;
    while (!word.empty()) {
      const auto needed = display_width(word) + (line_has_word ? 1 : 0);
      if (display_width(line) + needed <= width) {
        line += (line_has_word ? " " : "") + std::string(word);
        line_has_word = true;
        break;
      }
      if (line_has_word) {
        flush();
        continue;
      }
      // A word longer than a whole line: as much as fits, the rest on the next line.
      const auto shown = display_width(line);
      const auto room = width > shown ? width - shown : 1;
      const auto cut = std::max<std::size_t>(1, byte_offset(word, room));
      line += std::string(word.substr(0, cut));
      word.remove_prefix(cut);
      flush();
    }
  }
  if (line_has_word || out.empty()) out += line + "\n";
  return out;
}

std::string text_table(const Table& table) { return text_table(table, TextLayout{}); }
std::string text_table(const Table& table, std::size_t max_width) { return text_table(table, TextLayout{max_width}); }
std::string text_table(const Table& table, std::size_t max_width, bool wrap_last) {
  return text_table(table, TextLayout{max_width, wrap_last ? LongText::cut : LongText::shorten});
}

Table with_columns(const Table& table, const std::vector<std::size_t>& columns) {
  Table part{table.section, table.id, table.title, {}, {}};
  for (const auto column : columns) part.columns.push_back(table.columns[column]);
  for (const auto& row : table.rows) {
    auto& cells = part.rows.emplace_back();
    for (const auto column : columns) cells.push_back(row[column]);
  }
  return part;
}

namespace {

// Shortens each row's last cell to `width`; cells that would then read the same although their texts differ get a
// number each ("sm80_xmma...cudnn #2"), so that two kernels never show as one name twice.
void shorten_apart(std::vector<std::vector<std::string>>& texts, std::size_t width) {
  std::vector<std::string> shortened;
  std::map<std::string, std::vector<std::string>> texts_shown_as;  // in order of first appearance
  for (const auto& cells : texts) {
    shortened.push_back(elide_middle(cells.back(), width));
    auto& same = texts_shown_as[shortened.back()];
    if (std::find(same.begin(), same.end(), cells.back()) == same.end()) same.push_back(cells.back());
  }
  for (std::size_t r = 0; r < texts.size(); ++r) {
    const auto& same = texts_shown_as[shortened[r]];
    auto& cell = texts[r].back();
    if (same.size() < 2) {
      cell = shortened[r];
      continue;
    }
    const auto number = fmt::format(" #{}", std::find(same.begin(), same.end(), cell) - same.begin() + 1);
    cell = elide_middle(cell, width - number.size()) + number;
  }
}

// The last cell's text past `width` characters, in the pieces that go on the lines below it.
std::vector<std::string> continuation(std::string& last, std::size_t width, LongText long_text) {
  std::vector<std::string> pieces;
  if (display_width(last) <= width) return pieces;
  if (long_text == LongText::words) {
    const auto lines = wrap_text("", "", last, width);
    std::size_t start = 0;
    while (start < lines.size()) {
      const auto end = lines.find('\n', start);
      pieces.push_back(lines.substr(start, end - start));
      start = end + 1;
    }
    last = pieces.front();
    pieces.erase(pieces.begin());
    return pieces;
  }
  auto rest = last.substr(byte_offset(last, width));
  last.resize(last.size() - rest.size());
  while (!rest.empty()) {
    const auto cut = byte_offset(rest, width);
    pieces.push_back(rest.substr(0, cut));
    rest.erase(0, cut);
  }
  return pieces;
}

constexpr std::size_t kNarrowestName = 12;

// A line is one space, then each column's width and two spaces between columns.
std::size_t line_width(const std::vector<std::size_t>& widths) {
  std::size_t total = 1;
  for (const auto width : widths) total += width + 2;
  return total - 2;
}

// Split into parts when the table is too wide and its last column cannot shrink to fit; none otherwise.
std::vector<Table> parts_to_fit(const Table& table, const std::vector<std::size_t>& widths,
                                const std::vector<bool>& right, const TextLayout& layout) {
  const auto total = line_width(widths);
  if (layout.max_width == 0 || layout.key_columns == 0 || layout.key_columns >= widths.size() ||
      total <= layout.max_width) {
    return {};
  }
  if (!right.back() && widths.back() >= kNarrowestName + (total - layout.max_width)) return {};
  std::vector<std::size_t> key(layout.key_columns);
  for (std::size_t c = 0; c < key.size(); ++c) key[c] = c;
  std::size_t key_width = 1;
  for (const auto column : key) key_width += widths[column] + 2;
  std::vector<Table> parts;
  auto columns = key;
  auto used = key_width;
  const auto close_part = [&] {
    auto& part = parts.emplace_back(with_columns(table, columns));
    if (parts.size() > 1) part.title += " (continued)";
  };
  for (std::size_t column = key.size(); column < widths.size(); ++column) {
    if (columns.size() > key.size() && used + widths[column] > layout.max_width) {
      close_part();
      columns = key, used = key_width;
    }
    columns.push_back(column), used += widths[column] + 2;
  }
  close_part();
  return parts;
}

}  // namespace

std::string text_table(const Table& table, const TextLayout& layout) {
  const auto max_width = layout.max_width;
  // A title that says which ranks lack something grows with the job: wrapped like prose, never past the width.
  const auto title = printable(table.title);
  std::string out = (max_width > 0 ? wrap_text("", "  ", title, max_width) : title + "\n") + "\n";
  if (table.rows.empty()) return out + "  (none)\n\n";
  std::vector<std::size_t> widths(table.columns.size());
  std::vector<std::string> header;
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    header.push_back(printable(table.columns[c]));
    widths[c] = display_width(header.back());
  }
  std::vector<std::vector<std::string>> texts;
  for (const auto& row : table.rows) {
    auto& cells = texts.emplace_back();
    for (std::size_t c = 0; c < row.size(); ++c) {
      cells.push_back(printable(row[c].text));
      widths[c] = std::max(widths[c], display_width(cells.back()));
    }
  }
  std::vector<bool> right(table.columns.size(), false);
  for (std::size_t c = 0; c < right.size(); ++c) right[c] = table.rows.front()[c].numeric;
  if (const auto parts = parts_to_fit(table, widths, right, layout); !parts.empty()) {
    out.clear();
    for (const auto& part : parts) out += text_table(part, TextLayout{max_width, layout.long_text});
    return out;
  }
  const auto total = line_width(widths);
  // Full last cells (whole kernel names) continue on the next lines, under their column.
  std::vector<std::vector<std::string>> continued(texts.size());
  if (max_width > 0 && total > max_width && !widths.empty() && !right.back() &&
      widths.back() - (total - max_width) >= kNarrowestName) {
    widths.back() -= total - max_width;
    if (layout.long_text != LongText::shorten) {
      for (std::size_t r = 0; r < texts.size(); ++r) continued[r] = continuation(texts[r].back(), widths.back(), layout.long_text);
    } else if (table.section == Section::kernels) {
      // Names are told apart when shortening makes two read the same; prose (a description) is only shortened.
      shorten_apart(texts, widths.back());
    } else {
      for (auto& cells : texts) cells.back() = elide_middle(cells.back(), widths.back());
    }
  }
  const auto line = [&](const std::vector<std::string>& cells) {
    std::string text = " ";
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const bool last = c + 1 == cells.size();
      if (right[c]) text += padded(cells[c], widths[c], true);
      else text += last ? cells[c] : padded(cells[c], widths[c], false);
      if (!last) text += "  ";
    }
    out += text + "\n";
  };
  header.back() = elide_middle(header.back(), widths.back());
  line(header);
  std::vector<std::string> rules;
  for (const auto width : widths) rules.emplace_back(width, '-');
  line(rules);
  std::size_t last_start = 1;
  for (std::size_t c = 0; c + 1 < widths.size(); ++c) last_start += widths[c] + 2;
  const auto indent = std::string(last_start, ' ');
  for (std::size_t r = 0; r < texts.size(); ++r) {
    line(texts[r]);
    for (const auto& piece : continued[r]) out += indent + piece + "\n";
  }
  return out + "\n";
}

std::string markdown_table(const Table& table) {
  std::string out = fmt::format("\n## {}\n\n", escape_markdown_cell(table.title));
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
         "svg text{font-family:system-ui,sans-serif}"
         ".cards{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0 16px}"
         ".card{border:1px solid #ddd;border-top:5px solid #222;border-radius:4px;padding:8px 12px;min-width:130px}"
         ".card .label{font-size:12px;color:#555}.card .value{font-size:22px;font-weight:600}"
         ".card .detail{font-size:11px;color:#777}";
}

std::string html_page_start(std::string_view title, std::string_view extra_style) {
  const auto escaped = escape_html(title);
  return fmt::format("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{}{}"
                     "</style></head><body>\n<h1>{}</h1>\n",
                     escaped, html_style(), extra_style, escaped);
}

std::string html_page_end() { return std::string(html_script()) + "</body></html>\n"; }

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
