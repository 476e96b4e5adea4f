// The nsys-stats parity tables (docs/summaries.md): NVTX ranges (`nvtx` section,
// as `nsys stats --report nvtx_sum`), CUDA API calls (`api`, as cuda_api_sum),
// and, in `launches`, the launch latency per kernel and the launch queue.

#include "host_summary_tables.hpp"

#include <fmt/format.h>

#include "gpuprof/report/cells.hpp"

namespace gpuprof::report {

// The terminal view leaves out Min and StdDev so that names keep their room within 120 columns.
std::vector<std::string> stats_columns(bool wide) {
  if (!wide) return {"Time%", "Total", "Instances", "Avg", "Med", "Max"};
  return {"Time%", "Total", "Instances", "Avg", "Med", "Min", "Max", "StdDev"};
}

std::vector<Cell> stats_cells(const analysis::DurationStats& s, double percent, bool wide) {
  std::vector<Cell> cells{number_cell(percent, 1), duration_cell(s.total_ns), integer_cell(s.instances),
                          duration_cell(s.avg_ns), duration_cell(s.med_ns)};
  if (wide) cells.push_back(duration_cell(s.min_ns));
  cells.push_back(duration_cell(s.max_ns));
  if (wide) cells.push_back(duration_cell(s.stddev_ns));
  return cells;
}

namespace {

// The longest `view.kernel_rows` rows per rank in the terminal view, every row elsewhere; the title says
// how many were left out.
using RowsOf = const std::vector<summaries::NamedDurations>& (*)(const analysis::RankAnalysis&);

Table named_table(const ReportInput& input, const TableView& view, Section section, std::string id,
                  const std::string& title, const std::string& name_column, RowsOf rows_of,
                  const std::string& total_column = "Total") {
  Table table{section, std::move(id), title, {"Rank"}, {}};
  for (const auto& column : stats_columns(view.wide)) table.columns.push_back(column == "Total" ? total_column : column);
  table.columns.push_back(name_column);
  std::size_t hidden = 0;
  for (const auto& rank : input.ranks) {
    const auto& rows = rows_of(rank);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (view.kernel_rows > 0 && i == view.kernel_rows) {
        hidden += rows.size() - i;
        break;
      }
      auto cells = std::vector<Cell>{integer_cell(rank.rank)};
      for (auto& cell : stats_cells(rows[i].stats, rows[i].percent, view.wide)) cells.push_back(std::move(cell));
      cells.push_back(text_cell(rows[i].name));
      table.rows.push_back(std::move(cells));
    }
  }
  if (hidden > 0) {
    table.title += fmt::format(" (the {} longest per rank; {} more with --top 0)", view.kernel_rows, hidden);
  }
  return table;
}

}  // namespace

void add_range_table(const ReportInput& input, const TableView& view, std::vector<Table>& tables) {
  tables.push_back(named_table(input, view, Section::nvtx, "nvtx_ranges",
                               "Host ranges, NVTX and annotations (nsys nvtx_sum)", "Range",
                               [](const analysis::RankAnalysis& rank) -> const auto& { return rank.host.ranges; }));
}

void add_api_table(const ReportInput& input, const TableView& view, std::vector<Table>& tables) {
  tables.push_back(named_table(input, view, Section::api, "api_calls", "CUDA API calls (nsys cuda_api_sum)", "Name",
                               [](const analysis::RankAnalysis& rank) -> const auto& { return rank.host.api_calls; }));
}

void add_launch_detail_tables(const ReportInput& input, const TableView& view, std::vector<Table>& tables) {
  tables.push_back(named_table(
      input, view, Section::launches, "launch_latency",
      "Launch latency per kernel (API call to kernel start)", "Kernel",
      [](const analysis::RankAnalysis& rank) -> const auto& { return rank.host.launch_latency; },
      "Waited (union)"));
  Table queues{Section::launches, "launch_queues",
               "Launch queue per device (kernels launched, not yet started)",
               {"Rank", "Device", "Kernels", "Max queue", "Mean queue", "Empty%"}, {}};
  for (const auto& rank : input.ranks) {
    for (const auto& queue : rank.host.launch_queues) {
      queues.rows.push_back({integer_cell(rank.rank), integer_cell(queue.device), integer_cell(queue.kernels),
                             integer_cell(queue.max_depth), number_cell(queue.mean_depth, 2),
                             percent_cell(queue.share_empty)});
    }
  }
  tables.push_back(std::move(queues));
}

}  // namespace gpuprof::report
