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
  SummaryLine answer;  // the step, where it goes, why the GPUs idle, who holds the others back
  std::vector<SummaryLine> advice;  // what to try, one line per large idle cause (advice.hpp)
  SummaryLine period;  // the step period and what it is over
  Table split;         // where the period goes: one row per part, with the spread over devices
  Table idle;          // why the GPUs are idle: one row per cause (no rows without idle time)
  std::vector<SummaryLine> findings;  // gaps, transfers, the job, data loss
};

// A mean or share of nanoseconds, rounded to the nearest one and written as the summary writes times.
std::string duration(double ns);

SummaryLayout layout_summary(const ReportSummary& summary);
// A part's name in the windows' scope: "idle in steps", or "idle" where the windows are activity spans.
std::string part_name(const PeriodSummary& period, PeriodPartKind kind);
// The answer line alone (summary_answer.cpp).
SummaryLine answer_line(const ReportSummary& summary);

}  // namespace gpuprof::report
