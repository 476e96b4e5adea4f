#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

enum class Format { text, markdown, csv, json, html };
// Throws TraceError::bad_input for an unknown name.
Format format_from_string(std::string_view name);

// The tables each format shows (report_model.hpp, TableView): text and Markdown get the terminal view
// unless input.wide, CSV and HTML the full view.
TableView table_view(Format format, const ReportInput& input);

// Each writer renders the whole report into a string.
std::string render_text(const ReportInput& input);
std::string render_markdown(const ReportInput& input);
std::string render_json(const ReportInput& input);
std::string render_html(const ReportInput& input);
// All tables in one file, each introduced by a `# id` line and separated by a blank line.
std::string render_csv(const ReportInput& input);
// One CSV document per table, keyed by file name (`<id>.csv`).
std::vector<std::pair<std::string, std::string>> render_csv_files(const ReportInput& input);
std::string render(Format format, const ReportInput& input);

// What a writer must respect besides its output path.
struct WriteOptions {
  bool overwrite = true;            // false: an existing output is refused (the CLI's default without --force)
  std::vector<std::string> inputs;  // files (or folders) read to make the output; never written over
};

// Writes the report to `output`. For CSV, an existing folder or a path ending
// in '/' gets one file per table. Every file is written beside its target and
// renamed into place, so readers never see half a report. Every target is
// checked (inputs, existing files) before the first one is written.
// Throws TraceError::bad_input for an output that is an input, exists without
// `overwrite` or cannot be created, TraceError::failure when writing fails.
void write_report(Format format, const ReportInput& input, const std::string& output,
                  const WriteOptions& options = {});

// The checks write_report makes, made before the analysis so that a refused
// output costs nothing. A CSV folder's files are checked when they are written.
void check_output(Format format, const std::string& output, const WriteOptions& options);

// Writes each (path, content) as write_report does, with the same checks.
void write_files(const std::vector<std::pair<std::string, std::string>>& files, const WriteOptions& options);

// For CSV into a folder (`output` ends in '/' or is a folder): the folder, created if needed; otherwise nullopt.
std::optional<std::string> csv_folder(Format format, const std::string& output);

}  // namespace gpuprof::report
