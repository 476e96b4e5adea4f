#pragma once

#include "gpuprof/report/report_model.hpp"
#include "json_idle.hpp"

namespace gpuprof::report {

// JSON key `memory`: per rank, whether memory was recorded, and per device the
// figures of the text table with the timeline (at most kMemoryTimelinePoints
// [time_ns, bytes] pairs, the largest value of each slice of time kept).
void write_memory(JsonWriter& w, const ReportInput& input);

}  // namespace gpuprof::report
