#pragma once

// JSON of the nsys-stats summaries (docs/summaries.md): "nvtx_ranges", "api_calls",
// "kernel_launch_latency" (rows per rank and name) and "launch_queues" (per rank and device).

#include "gpuprof/report/report_model.hpp"
#include "json_idle.hpp"

namespace gpuprof::report {

void write_host_summaries(JsonWriter& w, const ReportInput& input);

}  // namespace gpuprof::report
