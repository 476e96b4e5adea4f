#pragma once

// What a report shows, independent of its format: the analyses of every rank
// plus the sections asked for, and the same content as plain tables that the
// text, Markdown, CSV and HTML writers render.

#include <optional>
#include <string>
#include <vector>

#include "gpuprof/analysis/rank_analysis.hpp"
#include "gpuprof/job/clock_alignment.hpp"
#include "gpuprof/job/stragglers.hpp"

namespace gpuprof::report {

enum class Section { devices, transfers, kernels, steps, gaps, launches, job };

const std::vector<Section>& all_sections();
std::string_view to_string(Section section);
// Throws TraceError::bad_input for an unknown name.
Section section_from_string(std::string_view name);

// What only a job of several ranks has: clock offsets and stragglers.
struct JobSections {
  job::ClockAlignment clocks;
  job::StragglerReport stragglers;
  std::vector<std::string> notices;
};

struct ReportInput {
  std::vector<analysis::RankAnalysis> ranks;  // ascending rank
  std::optional<JobSections> job;             // several ranks only; the `job` section shows it
  std::vector<Section> sections = all_sections();
  bool full_names = false;  // kernel tables show whole names instead of short base names
  bool has(Section section) const;
};

struct Cell {
  std::string text;     // for people: "12.3 ms"
  std::string raw;      // for machines: "12300000"
  bool numeric = false;  // right-aligned in text
};

struct Table {
  Section section;
  std::string id;     // file name stem in CSV folders
  std::string title;
  std::vector<std::string> columns;
  std::vector<std::vector<Cell>> rows;
};

// One or more tables per requested section, in section order.
std::vector<Table> build_tables(const ReportInput& input);
// The `job` section's tables (none without input.job).
void add_job_tables(const ReportInput& input, std::vector<Table>& tables);

}  // namespace gpuprof::report
