#pragma once

// The report's tables as formatted cells, shared by the text, Markdown, CSV and HTML writers.

#include <string>
#include <vector>

#include "gpuprof/study/study_report.hpp"

namespace gpuprof::study {

struct Table {
  std::string id;     // CSV section name
  std::string title;
  std::vector<std::string> headers;
  std::vector<std::vector<std::string>> rows;
};

std::vector<Table> study_tables(const StudyReport& report);

// "always faster", "never breaks even", "≈ 262 (extrapolated)", ...
std::string describe_break_even(const BreakEvenRow& row);
std::string describe_interval(const BreakEvenRow& row);

}  // namespace gpuprof::study
