#pragma once

// Problems the collector or an importer wrote down in collector_stats
// (dropped records, invalid buffers, malformed input): one line each, so a
// report can put them on its first screen (DESIGN.md, "No silent loss").

#include <string>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

// One line per statistic of severity warning or error, and per non-zero
// "dropped" count whatever its severity (older files wrote those as info).
std::vector<std::string> data_loss_warnings(const trace::TraceModel& model);

}  // namespace gpuprof::analysis
