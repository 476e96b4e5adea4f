#pragma once

// The built `gpuprof` (GPUPROF_BINARY), run with arguments, for the study command tests.

#include <string>
#include <vector>

#include "process_runner.hpp"

namespace gpuprof::testing {

inline ProcessResult gpuprof(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), GPUPROF_BINARY);
  return run_process(arguments);
}

}  // namespace gpuprof::testing
