#include <fmt/format.h>

#include "escaping.hpp"
#include "gpuprof/report/report_writers.hpp"

namespace gpuprof::report {

std::string render_markdown(const ReportInput& input) {
  std::string out = "# gpuprof report\n\n";
  for (const auto& rank : input.ranks) {
    out += fmt::format("- rank {}: `{}`\n", rank.rank, escape_markdown_cell(rank.path));
    for (const auto& notice : rank.notices) out += fmt::format("  - **Note:** {}\n", escape_markdown_cell(notice));
  }
  for (const auto& table : build_tables(input)) {
    out += fmt::format("\n## {}\n\n", table.title);
    if (table.rows.empty()) {
      out += "(none)\n";
      continue;
    }
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
  }
  return out;
}

}  // namespace gpuprof::report
