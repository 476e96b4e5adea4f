#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "process_runner.hpp"

namespace gpuprof::testing {

inline ProcessResult gpuprof(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), GPUPROF_BINARY);
  return run_process(arguments);
}

// A bad-input failure: exit code 2 and exactly one line on stderr naming `file`.
inline void expect_bad_input(const ProcessResult& result, const std::string& file, const std::string& problem) {
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_NE(result.err.find("gpuprof: " + file), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(problem), std::string::npos) << result.err;
}

}  // namespace gpuprof::testing
