#pragma once

// The study's tables as report::Tables: cells carry formatted figures (numeric) or words (names from the study
// file and the traces, escaped as text); the text layout, Markdown, CSV and HTML writers share them.

#include <string>
#include <vector>

#include "gpuprof/report/report_model.hpp"
#include "gpuprof/study/study_report.hpp"

namespace gpuprof::study {

using Table = report::Table;

std::vector<Table> study_tables(const StudyReport& report);

// "always faster", "never breaks even", "≈ 262 (extrapolated)", ...
std::string describe_break_even(const BreakEvenRow& row);
std::string describe_interval(const BreakEvenRow& row);

}  // namespace gpuprof::study
