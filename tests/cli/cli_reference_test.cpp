// Completion and the man page are generated from the option definitions at build
// time; a mistyped command gets the nearest one.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "report_width.hpp"
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

TEST(CliReference, BashOffersTheValuesOfAnOptionNotFileNames) {
  EXPECT_EQ(bash_replies("gpuprof report --format ''", 3), "text\nmd\ncsv\njson\nhtml\n");
  EXPECT_EQ(bash_replies("gpuprof report --format j", 3), "json\n");
  EXPECT_EQ(bash_replies("gpuprof report --sections summary,de", 3), "summary,devices\n");
  EXPECT_EQ(bash_replies("gpuprof report --sections me", 3), "memory\n");
  EXPECT_EQ(bash_replies("gpuprof predict T.sqlite --link nvlink", 4), "nvlink2\nnvlink3\nnvlink4\nnvlink5\n");
  EXPECT_EQ(bash_replies("gpuprof study s/ --predict-link pcie", 4),
            "pcie3\npcie4\npcie5\npcie3-x1\npcie3-m60\npcie3-p2p\n");
  EXPECT_EQ(bash_replies("gpuprof predict T.sqlite --sync ps", 4), "ps-cpu\nps-gpu\n");
  // A number has nothing to complete; a path option gets file names.
  TemporaryFolder folder;
  write_file(folder.file("run.sqlite"), "");
  EXPECT_EQ(bash_replies("gpuprof report --top ''", 3, folder.path().string()), "\n");
  EXPECT_EQ(bash_replies("gpuprof report -o ''", 3, folder.path().string()), "run.sqlite\n");
}

// A name with a space or a glob character is one reply, as it is: not split, not expanded.
TEST(CliReference, BashKeepsFileNamesWhole) {
  TemporaryFolder folder;
  write_file(folder.file("my trace*.sqlite"), "");
  write_file(folder.file("other.sqlite"), "");
  EXPECT_EQ(bash_replies("gpuprof report my", 2, folder.path().string()), "my trace*.sqlite\n");
}

TEST(CliReference, ZshOffersTheValuesOfAnOption) {
  const auto script = read_file(kReference + "/_gpuprof");
  EXPECT_NE(script.find("'--format[Output format]:value:(text md csv json html)'"), std::string::npos);
  EXPECT_NE(script.find("'--sections[Sections to show, comma-separated (default\\: all)]:values:_values -s , value "
                        "summary devices"),
            std::string::npos);
  EXPECT_NE(script.find("'--top["), std::string::npos);
  EXPECT_EQ(script.find("'--force[Overwrite an existing output file]:"), std::string::npos) << "a flag takes no value";
}

TEST(CliReference, TheManPageShowsValuesDefaultsPositionalsAndExamples) {
  const auto page = read_file(kReference + "/gpuprof.1");
  EXPECT_NE(page.find(".SH NAME\ngpuprof \\- where does the time"), std::string::npos) << page.substr(0, 200);
  EXPECT_EQ(page.find("\\fB\\-\\-help\\fR \\fI"), std::string::npos) << "a flag takes no value";
  EXPECT_EQ(page.find("\\fB\\-\\-force\\fR \\fI"), std::string::npos) << "a flag takes no value";
  EXPECT_EQ(page.find("VALUE"), std::string::npos);
  EXPECT_NE(page.find("\\fB\\-\\-format\\fR \\fI{text,md,csv,json,html}\\fR\nOutput format (default: text)"),
            std::string::npos);
  EXPECT_NE(page.find("\\fB\\-\\-top\\fR \\fIUINT"), std::string::npos);
  EXPECT_NE(page.find("\\fBgpuprof report\\fR [\\fIOPTIONS\\fR] \\fItraces\\fR..."), std::string::npos);
  EXPECT_NE(page.find(".TP\n\\fItraces\\fR\nTrace files"), std::string::npos);
  EXPECT_NE(page.find(".SH EXAMPLES\n"), std::string::npos);
}

// scripts/run.sh installs the page and completion itself; `man -w` finds the page where it puts them.
TEST(CliReference, RunShInstallsTheManPageAndCompletion) {
  const std::string source = GPUPROF_SOURCE_DIR;
  EXPECT_NE(read_file(source + "/scripts/run.sh").find("\nscripts/install-shell-files.sh"), std::string::npos);
  TemporaryFolder prefix;
  const auto installed = run_process({"/usr/bin/env", "PREFIX=" + prefix.path().string(), "bash",
                                      source + "/scripts/install-shell-files.sh", kReference});
  ASSERT_EQ(installed.exit_code, 0) << installed.err;
  EXPECT_TRUE(std::filesystem::exists(prefix.file("share/bash-completion/completions/gpuprof")));
  EXPECT_TRUE(std::filesystem::exists(prefix.file("share/zsh/site-functions/_gpuprof")));
  const auto man = run_process({"/bin/sh", "-c", "command -v man >/dev/null || { echo no-man; exit 0; }; MANPATH='" +
                                                     prefix.path().string() + "/share/man' man -w gpuprof"});
  if (man.out == "no-man\n") GTEST_SKIP() << "no man on this machine";
  EXPECT_EQ(man.out, prefix.file("share/man/man1/gpuprof.1") + "\n") << man.err;
}


// Every subcommand's help fits a terminal of 120 columns.
TEST(CliReference, EveryHelpFits120Columns) {
  std::vector<std::string> commands{""};
  for (const char* command : {"info", "synth", "record", "report", "import", "export", "compare", "sweep", "study",
                              "gui", "predict"}) {
    commands.emplace_back(command);
  }
  for (const auto& command : commands) {
    auto arguments = command.empty() ? std::vector<std::string>{"--help"} : std::vector<std::string>{command, "--help"};
    const auto help = gpuprof(arguments);
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_EQ(gpuprof::testing::first_line_wider_than(help.out, 120), "") << command;
  }
  EXPECT_NE(gpuprof({"gui", "--help"}).out.find("nvprof"), std::string::npos);
  // The app's own help says it opens job folders too (built beside gpuprof when Qt is there).
  const auto app = std::filesystem::path(GPUPROF_BINARY).parent_path() / ".." / "gui" / "gpuprof-gui";
  if (!std::filesystem::exists(app)) return;
  const auto help = run_process({"/usr/bin/env", "QT_QPA_PLATFORM=offscreen", app.string(), "--help"});
  EXPECT_NE(help.out.find("job folder"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("nvprof"), std::string::npos) << help.out;
}

TEST(CliReference, CompareTakesTheStepAndCommPatternsOfReport) {
  TemporaryFolder folder;
  const auto trace = folder.file("T.sqlite");
  ASSERT_EQ(gpuprof({"synth", "-o", trace, "--steps", "3", "--devices", "1"}).exit_code, 0);
  for (const char* option : {"--step-pattern", "--comm-pattern"}) {
    const auto result = gpuprof({"compare", trace, trace, option, "(unclosed"});
    EXPECT_EQ(result.exit_code, 2) << option << ": " << result.err;
    EXPECT_NE(result.err.find("(unclosed"), std::string::npos) << option << ": " << result.err;
  }
  EXPECT_EQ(gpuprof({"compare", trace, trace, "--step-pattern", "^step (\\d+)$"}).exit_code, 0);
}

// The text of info, report, compare and predict on the samples fits 120 columns too (a recorded command line,
// predict's notes and verdicts are wrapped).
TEST(CliReference, TextOutputsFit120Columns) {
  const std::string samples = std::string(GPUPROF_SOURCE_DIR) + "/samples/";
  const std::vector<std::vector<std::string>> commands{
      {"info", samples + "gru.sqlite"},
      {"report", samples + "resnet.sqlite", "--full-names"},
      {"compare", samples + "gru.sqlite", samples + "lstm.sqlite"},
      {"predict", samples + "gru.sqlite", "--gpus", "2,8"},
      {"predict", samples + "resnet.sqlite", "--gpus", "2", "--scaling", "strong"}};
  for (const auto& command : commands) {
    const auto result = gpuprof(command);
    EXPECT_EQ(result.exit_code, 0) << command[0] << ": " << result.err;
    EXPECT_EQ(gpuprof::testing::first_line_wider_than(result.out, 120), "") << command[0];
  }
}

// compare's --top means what report's does: 15 rows in text by default, every row in JSON.
TEST(CliReference, CompareTopDefaultsAsReports) {
  const std::string samples = std::string(GPUPROF_SOURCE_DIR) + "/samples/";
  const std::vector<std::string> runs{"compare", samples + "gru.sqlite", samples + "lstm.sqlite"};
  const auto with = [&](std::vector<std::string> more) {
    auto arguments = runs;
    arguments.insert(arguments.end(), more.begin(), more.end());
    return gpuprof(arguments);
  };
  const auto text = with({});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out, with({"--top", "15"}).out);
  EXPECT_NE(text.out, with({"--top", "0"}).out) << "the samples differ in more than 15 kernels";
  EXPECT_EQ(with({"--format", "json"}).out, with({"--format", "json", "--top", "0"}).out);
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
