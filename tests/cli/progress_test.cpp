// Progress lines reach a person at a terminal and nobody else: stderr that is a
// file (a log, CI) or --quiet gets not one byte of them; a terminal gets a line
// with a percentage that is cleared at the end.

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "cli_test_support.hpp"

namespace gpuprof::testing {
namespace {

struct PtyResult {
  int exit_code = -1;
  std::string terminal;  // what the program wrote to its stderr, a pseudo-terminal
};

// Runs gpuprof with stderr on a pseudo-terminal (stdout to /dev/null): what a
// person at a terminal would see of it.
PtyResult gpuprof_on_terminal(const std::vector<std::string>& arguments) {
  int master = -1, slave = -1;
  winsize size{};
  size.ws_col = 120, size.ws_row = 40;
  if (::openpty(&master, &slave, nullptr, nullptr, &size) != 0) return {};
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(master);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 0);
    ::dup2(null, 1);
    ::dup2(slave, 2);
    std::vector<std::string> all = {GPUPROF_BINARY};
    all.insert(all.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (auto& argument : all) argv.push_back(argument.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(slave);
  PtyResult result;
  // Read until the child's side closes (EIO on Linux): the pty's buffer must never fill.
  char buffer[4096];
  for (;;) {
    const auto got = ::read(master, buffer, sizeof buffer);
    if (got > 0) result.terminal.append(buffer, static_cast<std::size_t>(got));
    else if (got < 0 && errno == EINTR) continue;
    else break;
  }
  ::close(master);
  int status = 0;
  ::waitpid(child, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

// A trace big enough for many progress reports (the loader reports every 16 k rows).
class BigishTrace : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto made = gpuprof({"synth", "-o", trace_, "--devices", "2", "--events", "400000"});
    ASSERT_EQ(made.exit_code, 0) << made.err;
  }
  TemporaryFolder folder_;
  std::string trace_ = folder_.file("big.sqlite");
};

TEST_F(BigishTrace, StderrThatIsNoTerminalGetsNothing) {
  for (const bool quiet : {false, true}) {
    std::vector<std::string> quiet_flag = quiet ? std::vector<std::string>{"--quiet"} : std::vector<std::string>{};
    auto with = [&](std::vector<std::string> arguments) {
      arguments.insert(arguments.end(), quiet_flag.begin(), quiet_flag.end());
      return gpuprof(arguments);
    };
    const auto exported = with({"export", trace_, "--chrome-trace", folder_.file("t.json"), "-f"});
    EXPECT_EQ(exported.exit_code, 0);
    EXPECT_EQ(exported.err, "") << "quiet " << quiet;
    const auto report = with({"report", trace_});
    EXPECT_EQ(report.exit_code, 0);
    EXPECT_EQ(report.err, "") << "quiet " << quiet;
    EXPECT_NE(report.out.find("Step period"), std::string::npos);
    const auto json = with({"report", trace_, "--format", "json", "-o", folder_.file("r.json"), "-f"});
    EXPECT_EQ(json.exit_code, 0);
    EXPECT_EQ(json.err, "") << "quiet " << quiet;
  }
}

TEST_F(BigishTrace, ATerminalSeesOneLineRewrittenWithPercentagesThenCleared) {
  const auto result = gpuprof_on_terminal({"export", trace_, "--chrome-trace", folder_.file("t.json")});
  ASSERT_EQ(result.exit_code, 0) << result.terminal;
  const auto& text = result.terminal;
  EXPECT_NE(text.find("\r\033[Kexport: load "), std::string::npos) << text;
  EXPECT_NE(text.find("\r\033[Kexport: write "), std::string::npos) << text;
  EXPECT_NE(text.find(" % "), std::string::npos) << text;
  EXPECT_EQ(text.find('\n'), std::string::npos) << "the line is rewritten in place, never ended: " << text;
  EXPECT_TRUE(text.ends_with("\r\033[K")) << "cleared at the end: " << text;
}

TEST_F(BigishTrace, QuietOnATerminalDrawsNothing) {
  const auto result = gpuprof_on_terminal({"export", trace_, "--chrome-trace", folder_.file("t.json"), "--quiet"});
  ASSERT_EQ(result.exit_code, 0) << result.terminal;
  EXPECT_EQ(result.terminal, "");
  const auto report = gpuprof_on_terminal({"report", trace_, "-q"});
  ASSERT_EQ(report.exit_code, 0) << report.terminal;
  EXPECT_EQ(report.terminal, "");
}

TEST_F(BigishTrace, AReportOnATerminalShowsItsLoading) {
  const auto result = gpuprof_on_terminal({"report", trace_});
  ASSERT_EQ(result.exit_code, 0) << result.terminal;
  EXPECT_NE(result.terminal.find("report: load "), std::string::npos) << result.terminal;
  EXPECT_TRUE(result.terminal.ends_with("\r\033[K")) << result.terminal;
}

// Nsight Systems and nvprof exports are SQLite: their import counts the event rows imported of the rows their
// event tables hold, where a Kineto import counts bytes.
TEST(SqliteImportProgress, NsightAndNvprofImportsShowRowsOnATerminal) {
  TemporaryFolder folder;
  const std::string fixtures = GPUPROF_SOURCE_DIR "/tests/importers/data/";
  const auto many = [](const std::string& insert_rows) {
    return "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 60000) " + insert_rows;
  };
  const auto nsys = folder.file("run.nsys.sqlite"), nvprof = folder.file("run.nvvp");
  run_sql(nsys, read_file(fixtures + "nsys_export.sql"));
  run_sql(nsys, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME " +
                    many("SELECT 2000 + x * 10, 2005 + x * 10, 0, 282323165693308, 100000 + x, 2, 0 FROM c"));
  run_sql(nvprof, read_file(fixtures + "nvprof_database.sql"));
  run_sql(nvprof, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME " +
                      many("SELECT NULL, 211, 6000 + x * 10, 6005 + x * 10, 1234, 1235, 100000 + x, 0 FROM c"));
  for (const auto& input : {nsys, nvprof}) {
    const auto result = gpuprof_on_terminal({"import", input, "-o", input + ".gpuprof.sqlite"});
    ASSERT_EQ(result.exit_code, 0) << result.terminal;
    EXPECT_NE(result.terminal.find("\r\033[Kimport: import 0 % 0 rows"), std::string::npos) << result.terminal;
    EXPECT_TRUE(result.terminal.ends_with("\r\033[K")) << result.terminal;
    const auto quiet = gpuprof_on_terminal({"import", input, "-o", input + ".quiet.sqlite", "-q"});
    ASSERT_EQ(quiet.exit_code, 0) << quiet.terminal;
    EXPECT_EQ(quiet.terminal, "");
  }
}

// The sweep and the study report draw with the same renderer, and only on a terminal.
TEST(SweepProgress, RunsOnATerminalNothingInALog) {
  TemporaryFolder folder;
  const auto study = folder.file("study");
  const auto sweep = gpuprof_on_terminal({"sweep", "--synthetic", "--workload", "rnn", "--batch", "64,256", "--gpus",
                                          "1,2", "-o", study});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.terminal;
  EXPECT_NE(sweep.terminal.find("\r\033[Ksweep: run 0 % 0 runs ([1/4] rnn_b64_g1_single repeat 1/1)"),
            std::string::npos) << sweep.terminal;
  const auto report = gpuprof_on_terminal({"study", study});
  ASSERT_EQ(report.exit_code, 0) << report.terminal;
  EXPECT_NE(report.terminal.find("\r\033[Kstudy: analyse 0 % 0 traces"), std::string::npos) << report.terminal;
  const auto logged = gpuprof({"sweep", "--synthetic", "--workload", "rnn", "--batch", "64", "--gpus", "1", "-o",
                               folder.file("logged")});
  ASSERT_EQ(logged.exit_code, 0) << logged.err;
  EXPECT_EQ(logged.err.find("sweep: run"), std::string::npos) << logged.err;
  EXPECT_NE(logged.err.find("gpuprof: sweep done: 1 ok"), std::string::npos) << logged.err;
  const auto quiet = gpuprof({"sweep", "--synthetic", "--workload", "rnn", "--batch", "64", "--gpus", "1", "-o",
                              folder.file("quiet"), "-q"});
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "") << "--quiet drops the sweep's notes too";
  const auto study_log = gpuprof({"study", study, "--quiet"});
  EXPECT_EQ(study_log.exit_code, 0);
  EXPECT_EQ(study_log.err, "");
}

// Errors still print with --quiet, as one line.
TEST(QuietFlag, ErrorsStillPrint) {
  const auto result = gpuprof({"report", "/nonexistent/trace.sqlite", "--quiet"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("/nonexistent/trace.sqlite"), std::string::npos) << result.err;
}

// Every command takes it, short and long.
TEST(QuietFlag, EveryCommandTakesIt) {
  for (const char* command : {"info", "synth", "record", "report", "import", "export", "compare", "sweep", "study",
                              "gui", "predict"}) {
    const auto help = gpuprof({command, "--help"});
    EXPECT_NE(help.out.find("-q,--quiet"), std::string::npos) << command << ": " << help.out;
  }
}

}  // namespace
}  // namespace gpuprof::testing
