// Completion as a user meets it: a real zsh, driven through a terminal (tests/cli/zsh_complete.zsh), and bash,
// list the values of an option after a Tab, not file names (issue 39). Skips without zsh or its zpty module.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <optional>
#include <string>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

const std::string kReference = GPUPROF_CLI_REFERENCE_DIR;
const std::string kZshComplete = std::string(GPUPROF_SOURCE_DIR) + "/tests/cli/zsh_complete.zsh";

struct Zsh {
  std::optional<std::string> missing;  // why zsh cannot be asked here
  TemporaryFolder folder;              // the shell's working folder: a file there shows file completion
  TemporaryFolder results;

  Zsh() {
    write_file(folder.file("run.sqlite"), "");
    if (run_process({"/bin/sh", "-c", "command -v zsh"}).exit_code != 0) {
      missing = "no zsh on this machine (scripts/install-dependencies.sh installs it)";
    } else if (run_process({"/bin/sh", "-c", "zsh -fc 'zmodload zsh/zpty'"}).exit_code != 0) {
      missing = "this zsh has no zsh/zpty module to drive it through a terminal";
    }
  }
  // Every match zsh offers after `line` and a Tab, one a line.
  std::string lists(const std::string& line) {
    const auto out = results.file("matches.txt");
    // The time limit only stops a hung shell; nothing is measured.
    const auto result = run_process({"/bin/sh", "-c",
                                     "cd '" + folder.path().string() + "' && exec timeout 60 zsh -f '" + kZshComplete +
                                         "' '" + kReference + "' '" + line + "' '" + out + "'"});
    EXPECT_EQ(result.exit_code, 0) << line << ": " << result.err;
    return read_file(out);
  }
};

TEST(ShellCompletion, ZshListsTheValuesOfAnOption) {
  Zsh zsh;
  if (zsh.missing) GTEST_SKIP() << *zsh.missing;
  EXPECT_EQ(zsh.lists("gpuprof rep"), "report\n");
  EXPECT_EQ(zsh.lists("gpuprof report --format "), "text\nmd\ncsv\njson\nhtml\n");
  EXPECT_EQ(zsh.lists("gpuprof report --sections summary,de"), "devices\n");
  EXPECT_EQ(zsh.lists("gpuprof report --sections me"), "memory\n");
  EXPECT_EQ(zsh.lists("gpuprof predict t.sqlite --link nvlink"), "nvlink2\nnvlink3\nnvlink4\nnvlink5\n");
  EXPECT_EQ(zsh.lists("gpuprof study s --predict-link pcie3-"), "pcie3-x1\npcie3-m60\npcie3-p2p\n");
  EXPECT_EQ(zsh.lists("gpuprof compare a.sqlite b.sqlite --format "), "text\nmd\ncsv\njson\nhtml\n");
  EXPECT_EQ(zsh.lists("gpuprof predict t.sqlite --format "), "text\nmd\njson\ncsv\nhtml\n");
  EXPECT_EQ(zsh.lists("gpuprof predict t.sqlite --strategy "), "data-parallel\nhost-staged\nplacement\n");
  EXPECT_EQ(zsh.lists("gpuprof study s --format "), "text\nmd\nhtml\ncsv\njson\n");
  // A path option still gets file names.
  EXPECT_EQ(zsh.lists("gpuprof report -o "), "run.sqlite\n");
  // compinit's dump file once was /dev/null: run as root, zsh replaced the device with a regular file.
  struct stat null_device {};
  ASSERT_EQ(::stat("/dev/null", &null_device), 0);
  EXPECT_TRUE(S_ISCHR(null_device.st_mode)) << "/dev/null is no longer a device";
}

TEST(ShellCompletion, BashListsTheValuesOfPredictAndStudyOptions) {
  EXPECT_EQ(bash_replies("gpuprof predict t.sqlite --format ''", 4), "text\nmd\njson\ncsv\nhtml\n");
  EXPECT_EQ(bash_replies("gpuprof predict t.sqlite --scaling ''", 4), "weak\nstrong\n");
  EXPECT_EQ(bash_replies("gpuprof predict t.sqlite --allreduce ''", 4), "bucketed\nafter-backward\n");
  EXPECT_EQ(bash_replies("gpuprof study s --format ''", 4), "text\nmd\nhtml\ncsv\njson\n");
  EXPECT_EQ(bash_replies("gpuprof study s --predict-strategy ''", 4), "data-parallel\nhost-staged\n");
}

}  // namespace
}  // namespace gpuprof::testing
