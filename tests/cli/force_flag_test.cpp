// Every command that writes takes -f/--force, and none replaces an existing file without it.

#include <gtest/gtest.h>

#include <string>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

TEST(ForceFlag, EveryCommandThatWritesTakesTheShortForm) {
  for (const char* command :
       {"synth", "record", "report", "import", "export", "compare", "sweep", "study", "predict"}) {
    const auto help = gpuprof({command, "--help"});
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_NE(help.out.find("-f,--force"), std::string::npos) << command << ":\n" << help.out;
  }
}

// study wrote over an existing file silently.
TEST(ForceFlag, StudyRefusesToReplaceAFileWithoutIt) {
  TemporaryFolder folder;
  const auto study = folder.file("study");
  ASSERT_EQ(gpuprof({"sweep", "--synthetic", "--workload", "rnn", "--batch", "64", "--gpus", "1", "-o", study})
                .exit_code,
            0);
  const auto output = folder.file("study.txt");
  write_file(output, "keep me");
  const auto refused = gpuprof({"study", study, "-o", output});
  expect_bad_input(refused, output, "already exists");
  EXPECT_EQ(read_file(output), "keep me");
  EXPECT_EQ(gpuprof({"study", study, "-o", output, "-f"}).exit_code, 0);
  EXPECT_NE(read_file(output), "keep me");
}

}  // namespace
}  // namespace gpuprof::testing
