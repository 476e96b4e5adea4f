#pragma once

// What a report shows, independent of its format: the analyses of every rank
// plus the sections asked for, and the same content as plain tables that the
// text, Markdown, CSV and HTML writers render.

#include <string>
#include <vector>

#include "gpuprof/analysis/rank_analysis.hpp"

namespace gpuprof::report {

enum class Section { devices, transfers, kernels, steps, gaps, launches };

const std::vector<Section>& all_sections();
std::string_view to_string(Section section);
// Throws TraceError::bad_input for an unknown name.
Section section_from_string(std::string_view name);

struct ReportInput {
  std::vector<analysis::RankAnalysis> ranks;  // ascending rank
  std::vector<Section> sections = all_sections();
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

}  // namespace gpuprof::report
