#include "gpuprof/report/report_writers.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "gpuprof/trace/file_publishing.hpp"
#include "gpuprof/trace/output_guard.hpp"
#include "gpuprof/trace/temporary_files.hpp"
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

namespace {

void refuse_existing(const std::vector<std::string>& paths) {
  for (const auto& path : paths) {
    std::error_code ignored;
    if (fs::exists(path, ignored)) throw TraceError::bad_input(path, "already exists (use --force to overwrite)");
  }
}

void write_one(const std::string& path, const std::string& content, bool overwrite) {
  const auto temporary = temporary_path_beside(path);
  const TemporaryName registration(temporary);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out.is_open()) throw TraceError::bad_input(path, std::string("cannot create: ") + std::strerror(errno));
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.flush();
    if (!out) {
      const std::string reason = std::strerror(errno);
      std::error_code ignored;
      fs::remove(temporary, ignored);
      throw TraceError::failure(path, "cannot write: " + reason);
    }
  }
  try {
    publish_file(temporary, path, overwrite);
  } catch (const TraceError&) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw;
  }
}

}  // namespace

void check_output(Format format, const std::string& output, const WriteOptions& options) {
  if (output.empty() || output == "-") return;
  if (format == Format::csv && (output.ends_with('/') || fs::is_directory(output))) return;
  refuse_writing_over_inputs({output}, options.inputs);
  refuse_folder_output(output);
  if (!options.overwrite) refuse_existing({output});
  const fs::path parent = fs::path(output).parent_path();
  std::error_code ignored;
  if (!parent.empty() && !fs::is_directory(parent, ignored)) {
    throw TraceError::bad_input(output, "cannot create: folder " + parent.string() + " does not exist");
  }
}

void write_files(const std::vector<std::pair<std::string, std::string>>& files, const WriteOptions& options) {
  std::vector<std::string> targets;
  for (const auto& file : files) targets.push_back(file.first);
  refuse_writing_over_inputs(targets, options.inputs);
  if (!options.overwrite) refuse_existing(targets);
  for (const auto& [path, content] : files) write_one(path, content, options.overwrite);
}

std::optional<std::string> csv_folder(Format format, const std::string& output) {
  if (format != Format::csv || !(output.ends_with('/') || fs::is_directory(output))) return std::nullopt;
  std::error_code error;
  fs::create_directories(output, error);
  if (error) throw TraceError::bad_input(output, "cannot create folder: " + error.message());
  return output;
}

void write_report(Format format, const ReportInput& input, const std::string& output, const WriteOptions& options) {
  const auto folder = csv_folder(format, output);
  if (!folder) {
    write_files({{output, render(format, input)}}, options);
    return;
  }
  auto files = render_csv_files(input);
  for (auto& file : files) file.first = (fs::path(*folder) / file.first).string();
  write_files(files, options);
}

}  // namespace gpuprof::report
