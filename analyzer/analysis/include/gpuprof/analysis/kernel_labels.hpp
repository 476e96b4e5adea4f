#pragma once

// What a kernel row is called where people read it. Rows stay apart by full name, but several full names can
// share a short base name (template arguments differ): those rows are numbered "name #1", "name #2" in the rows'
// order (longest first), so that no two rows of a table read the same. The report's tables, its charts and the
// app label rows the same way.

#include <string>
#include <vector>

#include "gpuprof/analysis/kernel_summary.hpp"

namespace gpuprof::analysis {

// One label per row, in order: the full name with `full_names`, else the short name, numbered where shared.
std::vector<std::string> kernel_labels(const std::vector<KernelSummaryRow>& rows, bool full_names);

}  // namespace gpuprof::analysis
