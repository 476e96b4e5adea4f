#pragma once

// `gpuprof info --format json`: what the text describes, for scripts
// (format "gpuprof.info/1"). Strings from the file are written as JSON strings,
// which escape every control character, so none reaches a terminal raw.

#include <string>
#include <vector>

namespace gpuprof::cli {

struct InfoTrace {
  std::string shown_path;  // as the user named it (or found in a folder)
  std::string trace_path;  // the gpuprof trace read: the file itself or its imported copy
};

// One trace's JSON object. Throws TraceError naming the trace read for one that cannot be read.
std::string info_json_trace(const InfoTrace& trace);
// The document holding those objects, in order.
std::string info_json_document(const std::vector<std::string>& trace_objects);

}  // namespace gpuprof::cli
