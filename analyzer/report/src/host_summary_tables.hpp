#pragma once

#include <vector>

#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

void add_range_table(const ReportInput& input, const TableView& view, std::vector<Table>& tables);
void add_api_table(const ReportInput& input, const TableView& view, std::vector<Table>& tables);
void add_launch_detail_tables(const ReportInput& input, const TableView& view, std::vector<Table>& tables);

}  // namespace gpuprof::report
