// Completion and the man page are generated from the option definitions at build
// time; a mistyped command gets the nearest one.

#include <gtest/gtest.h>

#include <string>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

const std::string kReference = GPUPROF_CLI_REFERENCE_DIR;

std::string bash_completes(const std::string& words, int current) {
  const auto result = run_process({"/bin/bash", "-c",
                                   "source " + kReference + "/gpuprof.bash; COMP_WORDS=(" + words +
                                       "); COMP_CWORD=" + std::to_string(current) +
                                       "; _gpuprof; echo \"${COMPREPLY[@]}\""});
  return result.out;
}

TEST(CliReference, BashCompletesCommandsAndEachCommandsOptions) {
  EXPECT_EQ(bash_completes("gpuprof rep", 1), "report\n");
  const auto options = bash_completes("gpuprof report --fo", 2);
  EXPECT_NE(options.find("--format"), std::string::npos) << options;
  EXPECT_EQ(bash_completes("gpuprof record --buffer-c", 2), "--buffer-count\n");
}

// --quiet is added to every command after they are defined; the generated files must still see it.
TEST(CliReference, QuietIsInTheCompletionAndTheManPage) {
  for (const char* command : {"export", "report", "import", "sweep", "predict"}) {
    EXPECT_EQ(bash_completes(std::string("gpuprof ") + command + " --qu", 2), "--quiet\n") << command;
  }
  const auto page = read_file(kReference + "/gpuprof.1");
  std::size_t quiet_entries = 0;
  for (auto at = page.find("\\fB\\-q\\fR, \\fB\\-\\-quiet\\fR"); at != std::string::npos;
       at = page.find("\\fB\\-q\\fR, \\fB\\-\\-quiet\\fR", at + 1)) {
    ++quiet_entries;
  }
  EXPECT_EQ(quiet_entries, 11u) << "one per command";
  EXPECT_NE(read_file(kReference + "/_gpuprof").find("'--quiet[No progress line"), std::string::npos);
}

TEST(CliReference, TheManPageNamesEveryCommandAndItsOptions) {
  const auto page = read_file(kReference + "/gpuprof.1");
  EXPECT_EQ(page.rfind(".TH GPUPROF 1", 0), 0u);
  for (const char* command : {"info", "synth", "record", "report", "import", "export", "compare", "sweep", "study",
                              "gui"}) {
    EXPECT_NE(page.find(std::string(".SS ") + command + "\n"), std::string::npos) << command;
  }
  EXPECT_NE(page.find("\\fB\\-\\-buffer\\-count\\fR"), std::string::npos);
}

TEST(CliReference, ZshCompletionDefinesTheFunction) {
  const auto script = read_file(kReference + "/_gpuprof");
  EXPECT_EQ(script.rfind("#compdef gpuprof", 0), 0u);
  EXPECT_NE(script.find("'report:"), std::string::npos);
  // Parsed by zsh itself where it is installed.
  const auto zsh = run_process({"/bin/sh", "-c", "command -v zsh >/dev/null || exit 0; zsh -n " + kReference + "/_gpuprof"});
  EXPECT_EQ(zsh.exit_code, 0) << zsh.err;
}

TEST(CliReference, AMistypedCommandGetsTheNearestOne) {
  const auto result = gpuprof({"repotr", "trace.sqlite"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("unknown command 'repotr'; did you mean 'report'?"), std::string::npos) << result.err;
  const auto far = gpuprof({"xyzzyplugh"});
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
}

}  // namespace
}  // namespace gpuprof::testing
