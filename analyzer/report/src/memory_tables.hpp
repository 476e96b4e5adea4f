#pragma once

#include <vector>

#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

// The `memory` section: GPU memory in use per device (analyzer/memory/README.md).
void add_memory_table(const ReportInput& input, const TableView& view, std::vector<Table>& tables);

}  // namespace gpuprof::report
