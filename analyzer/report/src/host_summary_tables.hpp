#pragma once

#include <string>
#include <vector>

#include "gpuprof/analysis/duration_stats.hpp"

#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

// nsys's statistic columns (Time%, Total, Instances, Avg, Med, Min, Max, StdDev), and the cells of one row.
std::vector<std::string> stats_columns(bool wide);
std::vector<Cell> stats_cells(const analysis::DurationStats& stats, double percent, bool wide);

void add_range_table(const ReportInput& input, const TableView& view, std::vector<Table>& tables);
void add_api_table(const ReportInput& input, const TableView& view, std::vector<Table>& tables);
void add_launch_detail_tables(const ReportInput& input, const TableView& view, std::vector<Table>& tables);

}  // namespace gpuprof::report
