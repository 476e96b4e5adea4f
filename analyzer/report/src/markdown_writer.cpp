#include <fmt/format.h>

#include "escaping.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "job_notes.hpp"
#include "gpuprof/report/table_rendering.hpp"

namespace gpuprof::report {

std::string render_markdown(const ReportInput& input) {
  std::string out = "# gpuprof report\n\n";
  for (const auto& rank : input.ranks) {
    out += fmt::format("- rank {}: `{}`\n", rank.rank, escape_markdown_cell(rank.path));
    for (const auto& warning : rank.warnings) {
      out += fmt::format("  - **Warning:** {}\n", escape_markdown_cell(warning));
    }
    for (const auto& notice : rank.notices) out += fmt::format("  - **Note:** {}\n", escape_markdown_cell(notice));
  }
  out += job_notes(input, [](const std::string& note) {
    return fmt::format("- **Note:** {}\n", escape_markdown_cell(note));
  });
  for (const auto& table : build_tables(input)) out += markdown_table(table);
  return out;
}

}  // namespace gpuprof::report
