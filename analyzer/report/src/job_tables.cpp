#include <fmt/format.h>

#include <algorithm>

#include "gpuprof/report/cells.hpp"
#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {
namespace {

Table clock_table(const job::ClockAlignment& clocks) {
  Table table{Section::job, "clock_offsets",
              fmt::format("Clock offsets (reference rank {}, method: {})", clocks.reference_rank,
                          job::to_string(clocks.method)),
              {"Rank", "Offset", "Method", "Matched", "Spread"}, {}};
  for (const auto& entry : clocks.offsets) {
    table.rows.push_back({integer_cell(entry.rank), duration_cell(entry.offset_ns),
                          text_cell(std::string(job::to_string(entry.method))), integer_cell(entry.matched),
                          duration_cell(entry.spread_ns)});
  }
  return table;
}

Table summary_table(const job::JobSummary& job) {
  Table table{Section::job, "job_summary", "Job summary",
              {"Ranks", "Devices", "Mean step", "Slowest rank", "Slowest work", "Fastest rank", "Fastest work",
               "Imbalance%", "Stragglers"}, {}};
  std::string stragglers;
  for (const auto rank : job.stragglers) stragglers += (stragglers.empty() ? "" : " ") + std::to_string(rank);
  table.rows.push_back({integer_cell(job.ranks), integer_cell(job.devices), duration_cell(job.mean_step_ns),
                        integer_cell(job.slowest_rank), duration_cell(job.slowest_work_ns),
                        integer_cell(job.fastest_rank), duration_cell(job.fastest_work_ns),
                        percent_cell(job.imbalance), text_cell(stragglers.empty() ? "none" : stragglers)});
  return table;
}

Table timing_table(const std::vector<job::RankTiming>& ranks) {
  Table table{Section::job, "rank_timing", "Step time per rank",
              {"Rank", "Steps", "Mean step", "Mean collective wait", "Mean work", "Mean lateness", "Straggler"}, {}};
  for (const auto& rank : ranks) {
    table.rows.push_back({integer_cell(rank.rank), integer_cell(rank.steps), duration_cell(rank.mean_step_ns),
                          duration_cell(rank.mean_collective_wait_ns), duration_cell(rank.mean_work_ns),
                          duration_cell(rank.mean_lateness_ns),
                          text_cell(rank.straggler ? "yes" : "no")});
  }
  return table;
}

// The job's first GPU activity on the reference clock, the origin of the straggler table's start times.
std::int64_t job_start_ns(const ReportInput& input) {
  std::int64_t first = 0;
  bool any = false;
  for (const auto& rank : input.ranks) {
    std::int64_t start = 0;
    if (__builtin_add_overflow(rank.trace_start_ns, input.job->clocks.offset_of(rank.rank), &start)) continue;
    first = any ? std::min(first, start) : start;
    any = true;
  }
  return first;
}

Table straggler_table(const ReportInput& input, const TableView& view) {
  const auto& steps = input.job->stragglers.steps;
  Table table{Section::job, "stragglers", "Stragglers per step (start lateness vs the earliest rank)",
              {"Step", "Rank", "Warm-up", view.relative_times ? "Start" : "Start (ns)", "Duration", "Lateness",
               "Collective wait"}, {}};
  if (view.relative_times) table.title += "; Start: since the job's first GPU activity, reference clock";
  const auto origin = job_start_ns(input);
  for (const auto& step : steps) {
    table.rows.push_back({integer_cell(step.step), integer_cell(step.rank), text_cell(step.warmup ? "yes" : "no"),
                          view.relative_times ? time_point_cell(step.start_ns, origin) : integer_cell(step.start_ns),
                          duration_cell(step.duration_ns), duration_cell(step.lateness_ns),
                          duration_cell(step.collective_wait_ns)});
  }
  return table;
}

}  // namespace

void add_job_tables(const ReportInput& input, const TableView& view, std::vector<Table>& tables) {
  if (!input.job) return;
  tables.push_back(summary_table(input.job->stragglers.job));
  tables.push_back(clock_table(input.job->clocks));
  tables.push_back(timing_table(input.job->stragglers.ranks));
  tables.push_back(straggler_table(input, view));
}

}  // namespace gpuprof::report
