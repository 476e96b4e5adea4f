#pragma once

// The study report as text, Markdown, CSV, JSON (format gpuprof.study-report/1) or self-contained HTML.

#include <optional>
#include <string>
#include <string_view>

#include "gpuprof/study/study_report.hpp"

namespace gpuprof::study {

enum class StudyFormat { text, markdown, csv, json, html };
std::optional<StudyFormat> study_format_from_string(std::string_view name);

std::string render_study_text(const StudyReport& report);
std::string render_study_markdown(const StudyReport& report);
std::string render_study_csv(const StudyReport& report);
std::string render_study_json(const StudyReport& report);
std::string render_study_html(const StudyReport& report);
std::string render_study(StudyFormat format, const StudyReport& report);

}  // namespace gpuprof::study
