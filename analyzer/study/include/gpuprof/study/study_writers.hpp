#pragma once

// The study report as text, Markdown, CSV, JSON (format gpuprof.study-report/1) or self-contained HTML.

#include <optional>
#include <string>
#include <string_view>

#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/study/study_report.hpp"

namespace gpuprof::study {

// Text fits kTextWidth columns: columns without any value are left out and the
// last column's text wraps under itself. `wide`: every column, one line per row.
inline constexpr std::size_t kTextWidth = 120;
std::string render_study_text(const StudyReport& report, bool wide = false);
std::string render_study_markdown(const StudyReport& report);
std::string render_study_csv(const StudyReport& report);
std::string render_study_json(const StudyReport& report);
std::string render_study_html(const StudyReport& report);
// In one of the formats every gpuprof document has (report::format_from_string names them).
std::string render_study(report::Format format, const StudyReport& report, bool wide = false);

}  // namespace gpuprof::study
