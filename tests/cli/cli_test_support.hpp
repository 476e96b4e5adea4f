#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>
#include <vector>

#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {

inline ProcessResult gpuprof(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), GPUPROF_BINARY);
  return run_process(arguments);
}

// Each reply of gpuprof's bash completion (as built) for `words` with the cursor on word `current`, one a
// line, run from `folder`.
inline std::string bash_replies(const std::string& words, int current, const std::string& folder = ".") {
  return run_process({"/bin/bash", "-c",
                      "cd '" + folder + "' && source " + std::string(GPUPROF_CLI_REFERENCE_DIR) +
                          "/gpuprof.bash; COMP_WORDS=(" + words + "); COMP_CWORD=" + std::to_string(current) +
                          "; _gpuprof; printf '%s\\n' \"${COMPREPLY[@]}\""})
      .out;
}

// A bad-input failure: exit code 2 and exactly one line on stderr naming `file`.
inline void expect_bad_input(const ProcessResult& result, const std::string& file, const std::string& problem) {
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_NE(result.err.find("gpuprof: " + file), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(problem), std::string::npos) << result.err;
}

// Runs SQL on a trace file, as an attacker who edits it would; a failure fails the test.
inline void run_sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

// A test with a small synthetic trace, T.sqlite, in a folder of its own.
class WithSyntheticTrace : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = folder_.file("T.sqlite");
    const auto made = gpuprof({"synth", "-o", trace_, "--steps", "3", "--devices", "1"});
    ASSERT_EQ(made.exit_code, 0) << made.err;
  }
  TemporaryFolder folder_;
  std::string trace_;
};

}  // namespace gpuprof::testing
