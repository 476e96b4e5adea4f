#pragma once

// A valid synthetic trace in a temporary folder, edited one row at a time by
// SQL as a careless user or an attacker would, then run through everything.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "every_output.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {

class HostileTrace : public ::testing::Test {
 protected:
  void SetUp() override;

  // Runs SQL on the trace through a plain SQLite connection (no gpuprof checks).
  void edit(const std::string& sql);
  std::int64_t count(const std::string& sql);
  // Everything report/compare/export produce; each JSON output must parse strictly.
  EveryOutput outputs();

  TemporaryFolder folder_;
  std::string trace_;
};

// A data-loss line of `output` starts with `problem` (e.g. "load.invalid.kernels.name_id = 1").
void expect_problem(const EveryOutput& output, const std::string& problem);
// Parses `text` as JSON, rejecting invalid UTF-8.
void expect_strict_json(const std::string& what, const std::string& text);

}  // namespace gpuprof::testing
