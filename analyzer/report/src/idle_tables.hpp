#pragma once

// The report's idle-cause tables: by cause per device (with the devices
// section) and the main cause per step (with the steps section).

#include <vector>

#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

void add_idle_device_table(const ReportInput& input, std::vector<Table>& tables);
void add_idle_step_table(const ReportInput& input, std::vector<Table>& tables);
// Every idle interval with its causes, when the analysis kept them (`--gaps all`): what the app shows on hover.
void add_idle_interval_table(const ReportInput& input, const TableView& view, std::vector<Table>& tables);

}  // namespace gpuprof::report
