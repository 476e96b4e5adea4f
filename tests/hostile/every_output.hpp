#pragma once

// Runs a trace file through everything `report`, `compare` and `export` do, by
// the library calls the CLI makes: the analyses, the report and comparison in
// every format and the Chrome trace export. Shared by the hostile-file tests
// and the trace fuzz target, so both exercise the same paths.

#include <string>
#include <utility>
#include <vector>

#include "gpuprof/trace/records.hpp"

namespace gpuprof::testing {

struct EveryOutput {
  std::vector<std::string> warnings;                        // the rank's data-loss lines
  std::vector<std::pair<std::string, std::string>> texts;  // (what, content) for each output
};

// Throws TraceError when the file is refused; `scratch` is a folder for the export.
EveryOutput run_every_output(const std::string& trace, const std::string& scratch);

}  // namespace gpuprof::testing
