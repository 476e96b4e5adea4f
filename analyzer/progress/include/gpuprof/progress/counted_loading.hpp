#pragma once

// Loading one trace with its rows counted in stage "load" (of rows_to_load),
// for the commands that load a trace by itself rather than as a job's rank.

#include <string>

#include "gpuprof/progress/progress.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::progress {

// `item` names what is loaded when the line should say it ("rank 3, 4 of 8").
// Without a callback this is load_trace_model itself.
trace::TraceModel load_counted(const std::string& path, trace::LoadOptions options, const ProgressCallback& progress,
                               std::string item = {});

}  // namespace gpuprof::progress
