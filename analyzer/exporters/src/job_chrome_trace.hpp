#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/exporters/chrome_trace_exporter.hpp"
#include "json_output_file.hpp"

namespace gpuprof::exporters {

// The Chrome trace of a job: ranks identified and clocks aligned as `gpuprof
// report` does (job::analyze_job), then each rank loaded in turn (memory is one
// rank's) and written on the reference rank's clock, with one process per rank
// and device and arrows joining each collective across ranks. `inputs` are
// trace files (folders already expanded).
ChromeTraceSummary export_job(const std::vector<std::string>& inputs, const ChromeTraceOptions& options,
                              JsonOutputFile& file);

}  // namespace gpuprof::exporters
