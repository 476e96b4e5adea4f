// Temporaries never outlive gpuprof (issue 16): SIGINT or SIGTERM during an
// import or a report removes them, and a later run removes those a killed
// process left, never a live process's or a user's file.
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_support.hpp"
#include "gpuprof/trace/temporary_files.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

namespace fs = std::filesystem;

// A Kineto trace large enough that importing it takes a while on any machine.
void write_large_kineto(const std::string& path) {
  std::ofstream out(path);
  out << R"({"traceEvents": [)";
  for (int i = 0; i < 400'000; ++i) {
    out << (i ? "," : "") << R"({"ph": "X", "cat": "kernel", "name": "volta_sgemm_128x64_nn", "pid": 0, "tid": 7, )"
        << R"("ts": )" << i * 3 << R"(, "dur": 2, "args": {"device": 0, "stream": 7, "correlation": )" << i << "}}";
  }
  out << "]}";
}

// Starts gpuprof with $TMPDIR set to `temporary_dir`, outputs discarded.
pid_t start_gpuprof(const std::vector<std::string>& arguments, const std::string& temporary_dir) {
  std::vector<std::string> command = {GPUPROF_BINARY};
  command.insert(command.end(), arguments.begin(), arguments.end());
  const pid_t child = ::fork();
  if (child == 0) {
    ::setenv("TMPDIR", temporary_dir.c_str(), 1);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 0), ::dup2(null, 1), ::dup2(null, 2);
    std::vector<char*> argv;
    for (auto& argument : command) argv.push_back(argument.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return child;
}

bool holds_temporary(const fs::path& folder) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (temporary_owner(entry.path().filename().string())) return true;
  }
  return false;
}

std::vector<std::string> names_in(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Runs the command until a temporary shows up in `watched`, sends `signal_number`,
// and returns whether the process ended by that signal. False also when the
// command finished before a temporary was seen (then nothing was tested).
bool interrupt_while_writing(const std::vector<std::string>& arguments, const fs::path& watched,
                             const std::string& temporary_dir, int signal_number) {
  const pid_t child = start_gpuprof(arguments, temporary_dir);
  bool seen = false;
  for (int i = 0; i < 200'000 && !seen; ++i) {
    seen = holds_temporary(watched);
    if (!seen && ::waitpid(child, nullptr, WNOHANG) == child) return false;
    if (!seen) std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  if (seen) ::kill(child, signal_number);
  int status = 0;
  ::waitpid(child, &status, 0);
  return seen && WIFSIGNALED(status) && WTERMSIG(status) == signal_number;
}

class TemporaryFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directory(folder_.file("work"));
    fs::create_directory(folder_.file("tmp"));
    work_ = folder_.file("work");
    tmp_ = folder_.file("tmp");
  }
  TemporaryFolder folder_;
  fs::path work_, tmp_;
};

TEST_F(TemporaryFiles, SigtermDuringImportLeavesNothing) {
  write_large_kineto((work_ / "big.json").string());
  ASSERT_TRUE(interrupt_while_writing({"import", (work_ / "big.json").string(), "-o", (work_ / "out.sqlite").string()},
                                      work_, tmp_.string(), SIGTERM));
  EXPECT_EQ(names_in(work_), std::vector<std::string>{"big.json"});
}

TEST_F(TemporaryFiles, SigintDuringReportOfAForeignTraceLeavesNothing) {
  write_large_kineto((work_ / "big.json").string());
  ASSERT_TRUE(interrupt_while_writing({"report", (work_ / "big.json").string(), "-o", (work_ / "r.txt").string()},
                                      tmp_, tmp_.string(), SIGINT));
  EXPECT_EQ(names_in(work_), std::vector<std::string>{"big.json"});
  EXPECT_TRUE(names_in(tmp_).empty());
}

// A pid that is certainly not running: a child that has exited and been reaped.
pid_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  return child;
}

TEST_F(TemporaryFiles, ALaterRunRemovesOnlyStaleTemporariesOfOurPattern) {
  const auto dead = std::to_string(dead_pid());
  const auto live = std::to_string(::getpid());
  write_file((work_ / (".T.sqlite.gpuprof-tmp-" + dead + "-0a1b2c3d")).string(), "partial");
  write_file((work_ / (".T.sqlite.gpuprof-tmp-" + dead + "-0a1b2c3d-journal")).string(), "journal");
  write_file((work_ / (".r.txt.gpuprof-tmp-" + live + "-0a1b2c3d")).string(), "still being written");
  write_file((work_ / "notes.gpuprof-tmp-1-x.txt").string(), "a user's file");
  fs::create_directory(tmp_ / ("gpuprof-tmp-" + dead + "-Ab12Cd"));
  write_file((tmp_ / ("gpuprof-tmp-" + dead + "-Ab12Cd") / "k-0.sqlite").string(), "partial import");
  fs::create_directory(tmp_ / ("gpuprof-tmp-" + live + "-Ab12Cd"));

  const auto kineto = (work_ / "k.json").string();
  write_file(kineto, R"json({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7,
    "ts": 1, "dur": 2, "args": {"device": 0}}]})json");
  const auto result = gpuprof({"report", kineto, "-o", (work_ / "r.txt").string()});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  // The report ran with this test's $TMPDIR; sweep the private one as a run with TMPDIR=tmp_ would.
  const pid_t child = start_gpuprof({"report", kineto}, tmp_.string());
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  EXPECT_EQ(names_in(work_), (std::vector<std::string>{".r.txt.gpuprof-tmp-" + live + "-0a1b2c3d", "k.json",
                                                       "notes.gpuprof-tmp-1-x.txt", "r.txt"}));
  EXPECT_EQ(names_in(tmp_), std::vector<std::string>{"gpuprof-tmp-" + live + "-Ab12Cd"});
}

TEST(TemporaryNames, OnlyOurPatternHasAnOwner) {
  EXPECT_EQ(temporary_owner(".T.sqlite.gpuprof-tmp-4242-0a1b2c3d"), 4242);
  EXPECT_EQ(temporary_owner(".T.sqlite.gpuprof-tmp-4242-0a1b2c3d-journal"), 4242);
  EXPECT_EQ(temporary_owner("gpuprof-tmp-17-Ab12Cd"), 17);
  EXPECT_EQ(temporary_owner("T.sqlite"), std::nullopt);
  EXPECT_EQ(temporary_owner("mygpuprof-tmp-17-Ab12Cd"), std::nullopt);
  EXPECT_EQ(temporary_owner("notes.gpuprof-tmp-1-x.txt"), std::nullopt);
  EXPECT_EQ(temporary_owner("gpuprof-tmp--Ab12Cd"), std::nullopt);
  const auto name = fs::path(temporary_path_beside("/some/folder/out.json")).filename().string();
  EXPECT_EQ(temporary_owner(name), ::getpid()) << name;
  EXPECT_EQ(name.rfind(".out.json.gpuprof-tmp-", 0), 0u) << name;
}

}  // namespace
}  // namespace gpuprof::testing
