#include <fmt/format.h>

#include "gpuprof/report/report_summary.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/trace/utf8_text.hpp"
#include "job_notes.hpp"
#include "summary_layout.hpp"

namespace gpuprof::report {
namespace {

// Lines of prose are wrapped to the terminal in every view; only tables grow with --wide.
constexpr std::size_t kWidth = kTerminalWidth;

std::string labelled(const SummaryLine& line) {
  return wrap_text("  " + line.label + ": ", "    ", line.text, kWidth);
}

std::string summary_text(const ReportInput& input) {
  const auto layout = layout_summary(summarize_report(input));
  std::string out = layout.title + "\n\n" + labelled(layout.period) + "\n";
  out += text_table(layout.split, kWidth);
  if (!layout.idle.rows.empty()) out += text_table(layout.idle, kWidth);
  for (const auto& line : layout.findings) out += labelled(line);
  return out + "\n";
}

}  // namespace

std::string render_text(const ReportInput& input) {
  std::string out = "gpuprof report\n\n";
  for (const auto& rank : input.ranks) {
    out += wrap_text(fmt::format("rank {}: ", rank.rank), "    ", printable(rank.path), kWidth);
    for (const auto& warning : rank.warnings) out += wrap_text("  WARNING: ", "    ", printable(warning), kWidth);
    for (const auto& notice : rank.notices) out += wrap_text("  NOTE: ", "    ", printable(notice), kWidth);
  }
  out += job_notes(input, [](const std::string& note) { return wrap_text("  NOTE: ", "    ", printable(note), kWidth); });
  out += "\n";
  if (input.has(Section::summary)) out += summary_text(input);
  const auto view = table_view(Format::text, input);
  for (const auto& table : build_tables(input, view)) out += text_table(table, view.wide ? 0 : kWidth);
  return out;
}

}  // namespace gpuprof::report
