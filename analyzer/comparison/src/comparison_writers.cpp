#include "gpuprof/comparison/comparison_writers.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/utf8_text.hpp"
#include "waterfall_svg.hpp"

namespace gpuprof::comparison {
namespace {

namespace fs = std::filesystem;

std::string join(const std::vector<std::string>& inputs) {
  std::string out;
  for (const auto& input : inputs) out += (out.empty() ? "" : ", ") + input;
  return out;
}

// Within report::kTerminalWidth columns as `report` is: notes wrap under themselves and the kernel
// names of the last column are shortened in the middle; `wide` keeps every line whole.
std::string render_text(const RunComparison& comparison, bool wide) {
  const auto line = [wide](std::string_view first, std::string_view rest, const std::string& text) {
    return wide ? std::string(first) + printable(text) + "\n"
                : report::wrap_text(first, rest, printable(text), report::kTerminalWidth);
  };
  std::string out = "gpuprof compare\n\n";
  for (const auto& assumption : comparison.assumptions) out += line("ASSUMPTION: ", "    ", assumption);
  out += line("base:  ", "    ", join(comparison.base.inputs));
  out += line("other: ", "    ", join(comparison.other.inputs));
  for (const auto& warning : comparison.warnings) out += line("  WARNING: ", "    ", warning);
  for (const auto& notice : comparison.notices) out += line("  NOTE: ", "    ", notice);
  out += "\n";
  for (const auto& table : comparison_tables(comparison)) {
    out += wide ? report::text_table(table) : report::text_table(table, report::kTerminalWidth);
  }
  return out;
}

std::string render_markdown(const RunComparison& comparison) {
  std::string out = "# gpuprof compare\n\n";
  for (const auto& assumption : comparison.assumptions) {
    out += fmt::format("**Assumption:** {}\n\n", report::escape_markdown_cell(assumption));
  }
  out += fmt::format("- base: `{}`\n- other: `{}`\n", report::escape_markdown_cell(join(comparison.base.inputs)),
                     report::escape_markdown_cell(join(comparison.other.inputs)));
  for (const auto& warning : comparison.warnings) {
    out += fmt::format("- **Warning:** {}\n", report::escape_markdown_cell(warning));
  }
  for (const auto& notice : comparison.notices) {
    out += fmt::format("- **Note:** {}\n", report::escape_markdown_cell(notice));
  }
  for (const auto& table : comparison_tables(comparison)) out += report::markdown_table(table);
  return out;
}

std::string render_csv(const RunComparison& comparison) {
  std::string out;
  for (const auto& table : comparison_tables(comparison)) {
    out += (out.empty() ? "" : "\n") + ("# " + table.id + "\n") + report::csv_table(table);
  }
  return out;
}

std::string render_html(const RunComparison& comparison) {
  std::string out = report::html_page_start("gpuprof compare");
  for (const auto& assumption : comparison.assumptions) {
    out += fmt::format("<p class=\"warning\">Assumption: {}</p>\n", report::escape_html(assumption));
  }
  out += fmt::format("<p>base: <code>{}</code><br>other: <code>{}</code></p>\n", report::escape_html(join(comparison.base.inputs)),
                     report::escape_html(join(comparison.other.inputs)));
  for (const auto& warning : comparison.warnings) {
    out += fmt::format("<p class=\"warning\">{}</p>\n", report::escape_html(warning));
  }
  for (const auto& notice : comparison.notices) out += fmt::format("<p class=\"note\">{}</p>\n", report::escape_html(notice));
  out += "<h2>Step time waterfall</h2>\n" + waterfall_svg(comparison);
  for (const auto& table : comparison_tables(comparison)) out += report::html_table(table);
  return out + report::html_page_end();
}

std::string render_format(report::Format format, const RunComparison& comparison, bool wide) {
  switch (format) {
    case report::Format::text: return render_text(comparison, wide);
    case report::Format::markdown: return render_markdown(comparison);
    case report::Format::csv: return render_csv(comparison);
    case report::Format::json: return render_comparison_json(comparison);
    case report::Format::html: return render_html(comparison);
  }
  return render_text(comparison, wide);
}

}  // namespace

// Kernel names come from trace files: whatever bytes they hold, the output is valid UTF-8.
std::string render_comparison(report::Format format, const RunComparison& comparison, bool wide) {
  return clean_utf8(render_format(format, comparison, wide));
}

void write_comparison(report::Format format, const RunComparison& comparison, const std::string& output,
                      const report::WriteOptions& options, bool wide) {
  const auto folder = report::csv_folder(format, output);
  if (!folder) {
    report::write_files({{output, render_comparison(format, comparison, wide)}}, options);
    return;
  }
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& table : comparison_tables(comparison)) {
    files.emplace_back((fs::path(*folder) / (table.id + ".csv")).string(), report::csv_table(table));
  }
  report::write_files(files, options);
}

}  // namespace gpuprof::comparison
