#pragma once

#include <string>
#include <vector>

namespace gpuprof::testing {

struct ProcessResult {
  int exit_code = -1;  // 128 + signal number when killed by a signal
  std::string out;
  std::string err;
};

// Runs a program with arguments (no shell), waits, and captures both outputs.
ProcessResult run_process(const std::vector<std::string>& arguments);

}  // namespace gpuprof::testing
