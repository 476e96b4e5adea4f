#pragma once

// What the user named on the command line, turned into one path per rank file.

#include <string>
#include <vector>

namespace gpuprof::job {

// Files stay as given; a folder becomes the trace files directly inside it
// (anything detect_source_format recognises), sorted by name. A file in a folder
// that looks like a trace (a trace's name ending or first bytes) but cannot be
// read as one is damaged, not foreign: it fails the command as it would named
// on its own. Throws TraceError::bad_input for a path that does not exist, a
// damaged trace, or a folder without traces.
std::vector<std::string> expand_inputs(const std::vector<std::string>& inputs);

struct ExpandedInputs {
  std::vector<std::string> paths;
  std::vector<std::string> left_out;  // damaged traces left out
  std::vector<std::string> problems;  // "<file>: <problem>" for each of them
};

// expand_inputs, or with `skip_bad` (--skip-bad) every damaged trace, named or
// in a folder, left out and described instead of failing the command.
ExpandedInputs expand_inputs(const std::vector<std::string>& inputs, bool skip_bad);

}  // namespace gpuprof::job
