#include <fmt/format.h>

#include <filesystem>

#include "gpuprof/report/report_summary.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/trace/utf8_text.hpp"
#include "grouped_notes.hpp"
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
  std::string out = layout.title + "\n\n" + labelled(layout.answer);
  for (const auto& line : layout.advice) out += labelled(line);
  out += labelled(layout.period) + "\n";
  out += text_table(layout.split, kWidth);
  if (!layout.idle.rows.empty()) out += text_table(layout.idle, kWidth);
  for (const auto& line : layout.findings) out += labelled(line);
  return out + "\n";
}

std::string rank_lines(const ReportInput& input) {
  std::string out;
  for (const auto& rank : input.ranks) {
    out += wrap_text(fmt::format("  rank {}: ", rank.rank), "      ", printable(rank.path), kWidth);
  }
  return out;
}

// A job's rank files would push its answer off the screen: one line here, the list at the end.
std::string ranks_header(const ReportInput& input) {
  if (input.ranks.size() <= kListedRankFiles) {
    std::string out;
    for (const auto& rank : input.ranks) {
      out += wrap_text(fmt::format("rank {}: ", rank.rank), "    ", printable(rank.path), kWidth);
    }
    return out;
  }
  std::vector<std::int32_t> ranks;
  for (const auto& rank : input.ranks) ranks.push_back(rank.rank);
  const auto folder = std::filesystem::path(input.ranks.front().path).parent_path().string();
  bool one_folder = true;
  for (const auto& rank : input.ranks) one_folder = one_folder && std::filesystem::path(rank.path).parent_path() == folder;
  const auto where = one_folder && !folder.empty() ? " in " + printable(folder) : std::string();
  return wrap_text("", "    ", fmt::format("{} ranks ({}){}: the files are listed at the end", input.ranks.size(),
                                             rank_ranges(ranks), where), kWidth);
}

std::string notes_text(const ReportInput& input) {
  std::string out;
  for (const auto& note : grouped_notes(input)) {
    const auto label = fmt::format("  {}{}: ", note.warning ? "WARNING" : "NOTE",
                                   note.ranks.empty() ? std::string() : " (" + note.ranks + ")");
    out += wrap_text(label, "    ", printable(note.text), kWidth);
  }
  return out;
}

}  // namespace

std::string render_text(const ReportInput& input) {
  std::string out = "gpuprof report\n\n" + ranks_header(input) + notes_text(input) + "\n";
  if (input.has(Section::summary)) out += summary_text(input);
  const auto view = table_view(Format::text, input);
  for (const auto& table : build_tables(input, view)) {
    // --full-names: whole names, continued on the next lines rather than cut to fit.
    out += text_table(table, view.wide ? 0 : kWidth, input.full_names && table.section == Section::kernels);
  }
  if (input.ranks.size() > kListedRankFiles) out += "Rank files\n\n" + rank_lines(input);
  return out;
}

}  // namespace gpuprof::report
