// One exit-code rule for every command (issue 16): 2 for bad input and
// unusable output paths, with one line naming the user's file and nothing on
// stdout; never SQL text or one of our temporaries in the message.
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name;
  std::vector<std::string> arguments;
  std::string file;     // the user's file the message must name
  std::string problem;  // a piece of the message
};

class ExitCodes : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = folder_.file("T.sqlite");
    const auto made = gpuprof({"synth", "-o", trace_, "--steps", "20", "--devices", "2"});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    const auto bytes = read_file(trace_);
    truncated_ = folder_.file("truncated.sqlite");
    write_file(truncated_, bytes.substr(0, bytes.size() / 2));
    corrupt_ = folder_.file("corrupt.sqlite");
    // One data page overwritten: the header and schema read fine, a table does not.
    auto damaged = bytes;
    constexpr std::size_t kPage = 16384;  // the trace writer's page size
    const std::size_t page = bytes.size() * 3 / 10 / kPage * kPage;
    std::fill(damaged.begin() + static_cast<std::ptrdiff_t>(page),
              damaged.begin() + static_cast<std::ptrdiff_t>(page + kPage), '\xAB');
    write_file(corrupt_, damaged);
    foreign_ = folder_.file("other_tool.sqlite");
    sqlite3* database = nullptr;
    sqlite3_open(foreign_.c_str(), &database);
    sqlite3_exec(database, "CREATE TABLE meta(key, value); CREATE TABLE kernels(x);", nullptr, nullptr, nullptr);
    sqlite3_close(database);
    kineto_ = folder_.file("k.json");
    write_file(kineto_, R"json({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7,
      "ts": 1, "dur": 2, "args": {"device": 0}}]})json");
    missing_folder_ = folder_.file("no/such/folder/out");
  }

  void expect_case(const Case& c) {
    SCOPED_TRACE(c.name);
    const auto result = gpuprof(c.arguments);
    expect_bad_input(result, c.file, c.problem);
    EXPECT_TRUE(result.out.empty()) << "stdout on error:\n" << result.out;
    // Neither SQL nor the name of one of our temporaries (today's pattern or the ones before it).
    for (const char* text : {"SELECT", "FROM ", "sqlite_master", "gpuprof-tmp-", ".importing-", ".exporting-", ".tmp-"}) {
      EXPECT_EQ(result.err.find(text), std::string::npos) << result.err;
    }
  }

  TemporaryFolder folder_;
  std::string trace_, truncated_, corrupt_, foreign_, kineto_, missing_folder_;
};

TEST_F(ExitCodes, BrokenInputsReadTheSameInEveryCommand) {
  for (const auto& file : {truncated_, corrupt_}) {
    const auto problem = file == truncated_ ? "is truncated" : "is damaged";
    for (const auto& c : std::vector<Case>{
             {"info", {"info", file}, file, problem},
             {"report", {"report", file}, file, problem},
             {"compare", {"compare", trace_, file}, file, problem},
             {"export", {"export", file, "--chrome-trace", folder_.file("x.json")}, file, problem}}) {
      expect_case(c);
    }
  }
  expect_case({"info of a missing file", {"info", trace_, folder_.file("missing.sqlite")},
               folder_.file("missing.sqlite"), "no such file"});
}

TEST_F(ExitCodes, UnusableOutputsGiveTwoEverywhere) {
  for (const auto& c : std::vector<Case>{
           {"report", {"report", trace_, "-o", missing_folder_}, missing_folder_, "cannot create"},
           {"compare", {"compare", trace_, trace_, "-o", missing_folder_}, missing_folder_, "cannot create"},
           {"import", {"import", kineto_, "-o", missing_folder_}, missing_folder_, ""},
           {"export", {"export", trace_, "--chrome-trace", missing_folder_}, missing_folder_, "cannot create"},
           {"synth", {"synth", "-o", missing_folder_}, missing_folder_, ""}}) {
    expect_case(c);
  }
  if (::geteuid() == 0) return;  // root writes anywhere
  const auto locked = folder_.file("locked");
  fs::create_directory(locked);
  ::chmod(locked.c_str(), 0500);
  const auto inside = locked + "/out";
  for (const auto& c : std::vector<Case>{
           {"report", {"report", trace_, "-o", inside}, inside, "cannot create"},
           {"compare", {"compare", trace_, trace_, "-o", inside}, inside, "cannot create"},
           {"import", {"import", kineto_, "-o", inside}, inside, ""},
           {"export", {"export", trace_, "--chrome-trace", inside}, inside, "cannot create"}}) {
    expect_case(c);
  }
}

TEST_F(ExitCodes, ImportNamesWhatAFileIs) {
  expect_case({"foreign SQLite", {"import", foreign_, "-o", folder_.file("o.sqlite")}, foreign_, "another tool"});
  expect_case({"gpuprof trace", {"import", trace_, "-o", folder_.file("o.sqlite")}, trace_,
               "already a gpuprof trace"});
  expect_case({"forced format", {"import", trace_, "--format", "nsys", "-o", folder_.file("o.sqlite")}, trace_,
               "already a gpuprof trace"});
}

// A trace without GPU work, given as a foreign file, is analysed from a temporary import: the
// error must still name the user's file (issue 30: report and compare named the imported copy).
TEST_F(ExitCodes, ATraceWithoutGpuWorkIsNamedAsTheUserGaveIt) {
  fs::create_directory(folder_.file("cpu_job"));
  const auto cpu_only = folder_.file("cpu_job/cpu_only.json");
  write_file(cpu_only, R"json({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1,
    "tid": 1, "ts": 1, "dur": 2}]})json");
  const auto job = folder_.file("cpu_job");
  for (const auto& c : std::vector<Case>{
           {"report", {"report", cpu_only}, cpu_only, "no GPU activity"},
           {"report of a folder", {"report", job}, cpu_only, "no GPU activity"},
           {"compare, base", {"compare", cpu_only, trace_}, cpu_only, "no GPU activity"},
           {"compare, other", {"compare", trace_, job}, cpu_only, "no GPU activity"},
           {"export of a job", {"export", job, "--chrome-trace", folder_.file("job.json")}, cpu_only,
            "no GPU activity"},
           {"predict", {"predict", cpu_only, "--gpus", "2"}, cpu_only, "no GPU work"}}) {
    expect_case(c);
  }
}

// Another program holds a write lock: the command waits a little, then says so.
TEST_F(ExitCodes, ALockedFileIsReportedAsLocked) {
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(trace_.c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;", nullptr, nullptr, nullptr),
            SQLITE_OK);
  for (const auto& c : std::vector<Case>{{"info", {"info", trace_}, trace_, "locked by another program"},
                                         {"report", {"report", trace_}, trace_, "locked by another program"}}) {
    expect_case(c);
  }
  sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(holder);
}

}  // namespace
}  // namespace gpuprof::testing
