#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::testing {

// `read` refuses its input as bad input (TraceError::bad_input), and the message names `source`.
inline void expect_bad_input(const std::function<void()>& read, const std::string& source) {
  try {
    read();
    ADD_FAILURE() << "accepted " << source;
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input) << error.what();
    EXPECT_EQ(error.path(), source) << error.what();
  }
}

}  // namespace gpuprof::testing
