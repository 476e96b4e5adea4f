#include "gpuprof/report/report_writers.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::report {
namespace fs = std::filesystem;

Format format_from_string(std::string_view name) {
  if (name == "text") return Format::text;
  if (name == "md" || name == "markdown") return Format::markdown;
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  if (name == "html") return Format::html;
  throw TraceError::bad_input("", fmt::format("unknown format '{}' (known: text, md, csv, json, html)", name));
}

TableView table_view(Format format, const ReportInput& input) {
  TableView view;
  if (format == Format::text || format == Format::markdown) {
    view.wide = input.wide;
    view.relative_times = true;
    view.gap_list = input.all_gaps;
    view.kernel_rows = input.top_kernels.value_or(kDefaultTopKernels);
  } else {
    view.kernel_rows = input.top_kernels.value_or(0);
  }
  return view;
}

namespace {
std::string render_format(Format format, const ReportInput& input) {
  switch (format) {
    case Format::text: return render_text(input);
    case Format::markdown: return render_markdown(input);
    case Format::csv: return render_csv(input);
    case Format::json: return render_json(input);
    case Format::html: return render_html(input);
  }
  return render_text(input);
}
}  // namespace

// Names come from trace files: whatever bytes they hold, the report is valid UTF-8.
std::string render(Format format, const ReportInput& input) { return clean_utf8(render_format(format, input)); }

void write_file_atomically(const std::string& path, const std::string& content) {
  const fs::path target(path);
  const auto folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::random_device entropy;
  const auto temporary = folder / fmt::format(".{}.tmp-{:08x}", target.filename().string(), entropy());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      const std::string reason = std::strerror(errno);
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw TraceError::failure(path, "cannot write: " + reason);
    }
  }
  std::error_code error;
  fs::rename(temporary, target, error);
  if (error) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw TraceError::failure(path, "cannot rename into place: " + error.message());
  }
}

void write_report(Format format, const ReportInput& input, const std::string& output) {
  const bool folder = format == Format::csv && (output.ends_with('/') || fs::is_directory(output));
  if (!folder) {
    write_file_atomically(output, render(format, input));
    return;
  }
  std::error_code error;
  fs::create_directories(output, error);
  if (error) throw TraceError::failure(output, "cannot create folder: " + error.message());
  for (const auto& [name, content] : render_csv_files(input)) write_file_atomically((fs::path(output) / name).string(), content);
}

}  // namespace gpuprof::report
