#pragma once

// The rows of an nsys-stats style table: one per name, with the statistics of
// its durations and its share of the table's total time.

#include <string>
#include <vector>

#include "gpuprof/analysis/duration_stats.hpp"

namespace gpuprof::summaries {

struct NamedDurations {
  std::string name;
  analysis::DurationStats stats;
  double percent = 0;  // of the sum of every row's total, as nsys's "Time (%)"
};

// Rows by total time, largest first (ties by name), with their percentages filled in.
void finish_named_rows(std::vector<NamedDurations>& rows);

}  // namespace gpuprof::summaries
