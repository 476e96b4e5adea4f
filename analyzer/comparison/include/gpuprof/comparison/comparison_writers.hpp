#pragma once

// `gpuprof compare` output in the report formats (text, md, csv, json, html).

#include <string>
#include <vector>

#include "gpuprof/comparison/run_comparison.hpp"
#include "gpuprof/report/report_model.hpp"
#include "gpuprof/report/report_writers.hpp"

namespace gpuprof::comparison {

// Runs, scaling, waterfall and kernel diff as plain tables.
std::vector<report::Table> comparison_tables(const RunComparison& comparison);

std::string render_comparison_json(const RunComparison& comparison);
// Text fits 120 columns (notes wrap, kernel names are shortened in the middle); `wide`: whole lines.
std::string render_comparison(report::Format format, const RunComparison& comparison, bool wide = false);

// As report::write_report: atomic, and CSV into a folder gives one file per table.
void write_comparison(report::Format format, const RunComparison& comparison, const std::string& output,
                      const report::WriteOptions& options = {}, bool wide = false);

}  // namespace gpuprof::comparison
