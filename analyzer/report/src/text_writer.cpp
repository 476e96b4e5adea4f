#include <fmt/format.h>

#include "gpuprof/report/report_writers.hpp"
#include "job_notes.hpp"
#include "gpuprof/report/table_rendering.hpp"

namespace gpuprof::report {

std::string render_text(const ReportInput& input) {
  std::string out = "gpuprof report\n\n";
  for (const auto& rank : input.ranks) {
    out += fmt::format("rank {}: {}\n", rank.rank, printable(rank.path));
    for (const auto& warning : rank.warnings) out += fmt::format("  WARNING: {}\n", printable(warning));
    for (const auto& notice : rank.notices) out += fmt::format("  NOTE: {}\n", printable(notice));
  }
  out += job_notes(input, [](const std::string& note) { return fmt::format("  NOTE: {}\n", printable(note)); });
  out += "\n";
  for (const auto& table : build_tables(input)) out += text_table(table);
  return out;
}

}  // namespace gpuprof::report
