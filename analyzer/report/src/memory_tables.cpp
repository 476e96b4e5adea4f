// The `memory` section's table: per rank and device, the peak of GPU memory in
// use and when, the allocations behind it, and how the timeline is summed.

#include "memory_tables.hpp"

#include <string>
#include <vector>

#include "gpuprof/report/cells.hpp"

namespace gpuprof::report {
namespace {

std::vector<std::string> memory_columns(const TableView& view) {
  std::vector<std::string> columns = {"Rank", "Device", "Allocs", "Frees"};
  if (view.wide) columns.insert(columns.end(), {"Allocated", "Freed"});
  columns.insert(columns.end(), {"Baseline", "Peak", view.relative_times ? "Peak at" : "Peak at (ns)", "Peak%",
                                 "Mean", "Final", "In use from"});
  if (view.wide) columns.insert(columns.end(), {"Host allocs", "Host bytes"});
  return columns;
}

std::vector<Cell> memory_row(const analysis::RankAnalysis& rank, const memory::DeviceMemory& d,
                             const TableView& view) {
  std::vector<Cell> cells = {integer_cell(rank.rank), integer_cell(d.device), integer_cell(d.allocations),
                             integer_cell(d.frees)};
  if (view.wide) cells.insert(cells.end(), {bytes_cell(d.allocated_bytes), bytes_cell(d.freed_bytes)});
  const bool capacity = d.capacity_bytes != trace::kUnknown;
  cells.insert(cells.end(),
               {bytes_cell(d.baseline_bytes), bytes_cell(d.peak_bytes),
                time_point_cell(view, d.peak_time_ns, rank.trace_start_ns),
                capacity ? percent_cell(static_cast<double>(d.peak_bytes) / static_cast<double>(d.capacity_bytes))
                         : text_cell("-"),
                bytes_cell(static_cast<std::int64_t>(d.mean_bytes)), bytes_cell(d.final_bytes),
                text_cell(std::string(memory::to_string(d.source)))});
  if (view.wide) cells.insert(cells.end(), {integer_cell(d.host_allocations), bytes_cell(d.host_allocated_bytes)});
  return cells;
}

// Which ranks did not record memory, and why, kept short for the title: ranks are named up to four, then
// counted, so a title stays one line however large the job.
std::string not_recorded(const ReportInput& input) {
  std::vector<std::int32_t> ranks;
  bool old_schema = false;
  for (const auto& rank : input.ranks) {
    if (rank.memory.recorded()) continue;
    ranks.push_back(rank.rank);
    old_schema = old_schema || !rank.memory.table_present;
  }
  if (ranks.empty()) return {};
  const std::string why = old_schema ? "no allocation events (schema before 1.3)" : "no allocation events";
  if (ranks.size() == input.ranks.size()) return " (not recorded: " + why + ")";
  std::string which;
  if (ranks.size() <= 4) {
    for (const auto rank : ranks) which += (which.empty() ? "" : ", ") + std::to_string(rank);
    which = (ranks.size() == 1 ? "rank " : "ranks ") + which;
  } else {
    which = std::to_string(ranks.size()) + " of " + std::to_string(input.ranks.size()) + " ranks";
  }
  return " (not recorded in " + which + ": " + why + ")";
}

}  // namespace

void add_memory_table(const ReportInput& input, const TableView& view, std::vector<Table>& tables) {
  Table table{Section::memory, "memory", "GPU memory in use per device", memory_columns(view), {}};
  if (view.relative_times) table.title += " (Peak at: since the rank's first GPU activity)";
  table.title += not_recorded(input);
  for (const auto& rank : input.ranks) {
    for (const auto& device : rank.memory.devices) table.rows.push_back(memory_row(rank, device, view));
  }
  tables.push_back(std::move(table));
}

}  // namespace gpuprof::report
