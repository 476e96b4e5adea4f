#include <fmt/format.h>

#include <algorithm>

#include "gpuprof/report/report_writers.hpp"

namespace gpuprof::report {
namespace {

// Control characters from untrusted names would move the terminal cursor.
std::string printable(const std::string& text) {
  std::string out = text;
  for (auto& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return out;
}

// Aligned columns like `nsys stats`: numbers right, text left, the last text column unpadded.
void append_table(const Table& table, std::string& out) {
  out += fmt::format("{}\n\n", table.title);
  if (table.rows.empty()) {
    out += "  (none)\n\n";
    return;
  }
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
  out += "\n";
}

}  // namespace

std::string render_text(const ReportInput& input) {
  std::string out = "gpuprof report\n\n";
  for (const auto& rank : input.ranks) {
    out += fmt::format("rank {}: {}\n", rank.rank, printable(rank.path));
    for (const auto& notice : rank.notices) out += fmt::format("  NOTE: {}\n", printable(notice));
  }
  out += "\n";
  for (const auto& table : build_tables(input)) append_table(table, out);
  return out;
}

}  // namespace gpuprof::report
