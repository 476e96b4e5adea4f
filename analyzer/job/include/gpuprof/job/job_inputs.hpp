#pragma once

// What the user named on the command line, turned into one path per rank file.

#include <string>
#include <vector>

namespace gpuprof::job {

// Files stay as given; a folder becomes the trace files directly inside it
// (anything detect_source_format recognises), sorted by name. Throws
// TraceError::bad_input for a path that does not exist or a folder without traces.
std::vector<std::string> expand_inputs(const std::vector<std::string>& inputs);

}  // namespace gpuprof::job
