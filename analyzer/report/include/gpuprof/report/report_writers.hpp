#pragma once

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

// Writes the report to `output`. For CSV, an existing folder or a path ending
// in '/' gets one file per table. Every file is written beside its target and
// renamed into place, so readers never see half a report.
// Throws TraceError::failure when writing fails.
void write_report(Format format, const ReportInput& input, const std::string& output);

// Writes `content` to a temporary file beside `path`, then renames it over `path`.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace gpuprof::report
