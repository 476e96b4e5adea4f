#pragma once

// Inline SVG charts for the HTML report; every name is escaped.

#include <string>

#include "gpuprof/report/report_model.hpp"
#include "gpuprof/report/report_summary.hpp"

namespace gpuprof::report {

// The colour of each part of the step period, the same in every chart and in the summary cards.
const char* part_color(PeriodPartKind kind);

// One stacked bar per (rank, device): computation, exposed comm, exposed memcpy, idle (they add up to the window).
std::string breakdown_chart(const ReportInput& input);
// Bytes moved between GPUs (PtoP and DtoD) per rank as a heat map.
std::string transfer_matrix_chart(const analysis::RankAnalysis& rank);
// Steps and batch gaps along time, one lane per device; gaps in the warning colour.
std::string step_chart(const analysis::RankAnalysis& rank);
// GPU memory in use over time, one lane per device, each scaled to its own peak.
std::string memory_chart(const analysis::RankAnalysis& rank);
// Kernels launched and not yet started (the launch queue) over time, one lane per device.
std::string launch_queue_chart(const analysis::RankAnalysis& rank);
// The longest-running kernels as horizontal bars.
std::string top_kernels_chart(const analysis::RankAnalysis& rank, std::size_t count);

}  // namespace gpuprof::report
