#pragma once

// What a report shows, independent of its format: the analyses of every rank
// plus the sections asked for, and the same content as plain tables that the
// text, Markdown, CSV and HTML writers render.

#include <optional>
#include <string>
#include <vector>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/job/clock_alignment.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/job/stragglers.hpp"

namespace gpuprof::report {

// `summary` is the short answer the text, Markdown and HTML reports open with (JSON: `summary`).
// `nvtx` and `api` are the nsys-stats summaries (docs/summaries.md).
// `memory` is GPU memory in use over time (analyzer/memory/README.md).
enum class Section { summary, devices, transfers, kernels, collectives, steps, gaps, launches, nvtx, api, memory, job };

const std::vector<Section>& all_sections();
// Whether the analyses must compute the nsys-style summaries for these sections (nvtx, api, launches).
bool needs_host_summaries(const std::vector<Section>& sections);
// Whether the analyses must compute memory use for these sections (memory).
bool needs_memory_use(const std::vector<Section>& sections);
std::string_view to_string(Section section);
// Throws TraceError::bad_input for an unknown name.
Section section_from_string(std::string_view name);

// What only a job of several ranks has: clock offsets and stragglers.
struct JobSections {
  job::ClockAlignment clocks;
  job::StragglerReport stragglers;
  std::vector<std::string> notices;
  std::vector<job::PeerWaitPiece> peer_waits;  // idle time given to peer_wait because a partner was late
};

// Idle intervals JSON lists by default (the longest; the rest are counted): enough for every one a
// screen of the app shows, without a file of millions of rows.
inline constexpr std::size_t kDefaultMaxIntervals = 1000;

struct ReportInput {
  std::vector<analysis::RankAnalysis> ranks;  // ascending rank
  std::optional<JobSections> job;             // several ranks only; the `job` section shows it
  std::vector<Section> sections = all_sections();
  bool full_names = false;  // kernel tables show whole names instead of short base names
  // Kernel rows per rank; unset: kDefaultTopKernels in text and Markdown, every row elsewhere; 0: every row.
  std::optional<std::size_t> top_kernels;
  bool wide = false;      // text and Markdown: every breakdown column, as CSV and JSON have them
  bool all_gaps = false;  // text and Markdown: one row per batch gap besides the summary per device
  std::size_t max_intervals = kDefaultMaxIntervals;  // JSON's idle_intervals: the longest this many; 0: all
  bool has(Section section) const;
};

inline constexpr std::size_t kDefaultTopKernels = 15;
// The text report's lines fit this many columns unless --wide asks for every column.
inline constexpr std::size_t kTerminalWidth = 120;

// How the tables are laid out. The full view (CSV, HTML, --wide) has every column and absolute
// nanoseconds; the terminal view keeps the columns that matter and shows time points since the
// trace start. Cells keep absolute raw values in both.
struct TableView {
  bool wide = true;             // every breakdown column
  bool relative_times = false;  // time points as time since the rank's first GPU activity
  bool gap_list = true;         // one row per batch gap (the summary per device is always there)
  std::size_t kernel_rows = 0;  // kernel rows per rank (0: all)
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

// The analyses of a job, moved out of `job`: every rank, and the job sections when there are several.
ReportInput report_input(job::JobAnalysis&& job);

// One or more tables per requested section, in section order (the job's before the kernels').
std::vector<Table> build_tables(const ReportInput& input, const TableView& view = {});
// The `job` section's tables (none without input.job).
void add_job_tables(const ReportInput& input, const TableView& view, std::vector<Table>& tables);

}  // namespace gpuprof::report
