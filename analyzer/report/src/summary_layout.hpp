#pragma once

// The report summary as sentences and one table, shared by the text,
// Markdown and HTML writers so that they say the same thing in their own markup.

#include <string>
#include <vector>

#include "gpuprof/report/report_model.hpp"
#include "gpuprof/report/report_summary.hpp"

namespace gpuprof::report {

struct SummaryLine {
  std::string label;  // "Batch gaps"
  std::string text;   // plain text: no file names, only figures and fixed words
};

struct SummaryLayout {
  std::string title;
  SummaryLine period;  // the step period and what it is over
  Table split;         // where the period goes: one row per part, with the spread over devices
  Table idle;          // why the GPUs are idle: one row per cause (no rows without idle time)
  std::vector<SummaryLine> findings;  // gaps, transfers, the job, data loss
};

// A mean or share of nanoseconds, rounded to the nearest one and written as the summary writes times.
std::string duration(double ns);

SummaryLayout layout_summary(const ReportSummary& summary);

}  // namespace gpuprof::report
