// The smaller defects of issue 27: --save failing after the report was printed,
// temporary names past NAME_MAX for long output names, a study naming traces
// outside its folder, an Nsight Systems kernel table that is a view, and -wal
// and -shm files created beside a WAL-mode input, paths too long for SQLite.
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

namespace fs = std::filesystem;

class SmallDefects : public WithSyntheticTrace {};

TEST_F(SmallDefects, SaveFailsBeforeTheReportIsPrinted) {
  // A steps table of another shape: the file reads, but the save cannot write into it.
  run_sql(trace_, "DROP TABLE steps; CREATE TABLE steps(rank, device, step, start_ns, end_ns, busy_ns)");
  const auto result = gpuprof({"report", trace_, "--save"});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out.substr(0, 500);
}

TEST_F(SmallDefects, OutputNamesNearNameMaxWork) {
  const auto output = folder_.file(std::string(250, 'r') + ".txt");
  const auto result = gpuprof({"report", trace_, "-o", output});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(fs::exists(output));
}

TEST_F(SmallDefects, StudyRefusesTracesOutsideItsFolder) {
  const auto study = folder_.file("S");
  const auto made = gpuprof({"sweep", "--synthetic", "--workload", "rnn", "--batch", "64", "--gpus", "1", "--steps",
                             "2", "-o", study});
  ASSERT_EQ(made.exit_code, 0) << made.err;
  run_sql(study + "/study.sqlite", "UPDATE runs SET trace_paths = '../../../etc/passwd'");
  const auto result = gpuprof({"study", study});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("outside the study folder"), std::string::npos) << result.err;
}

TEST_F(SmallDefects, AnNsysKernelTableThatIsAViewIsRefused) {
  const auto nsys = folder_.file("n.sqlite");
  run_sql(nsys, "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
                "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER);"
                "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT 1 AS start, 2 AS end;");
  const auto result = gpuprof({"report", nsys});
  expect_bad_input(result, nsys, "contains view CUPTI_ACTIVITY_KIND_KERNEL");
}

// Every table the importer reads, the thread scheduling of Nsight Systems 2025 included: a view read as
// absent would lose the host's running time without a word.
TEST_F(SmallDefects, AnNsysSchedulingTableThatIsAViewIsRefused) {
  const auto nsys = folder_.file("n.sqlite");
  run_sql(nsys, "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
                "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER);"
                "CREATE VIEW SCHED_EVENTS AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                "SELECT x AS start, 0 AS cpu, x % 2 AS isSchedIn, 1 AS globalTid FROM c;");
  const auto result = gpuprof({"report", nsys});
  expect_bad_input(result, nsys, "contains view SCHED_EVENTS");
}

TEST_F(SmallDefects, AWalInputGetsNoSideFiles) {
  run_sql(trace_, "PRAGMA journal_mode = WAL");
  ASSERT_FALSE(fs::exists(trace_ + "-wal"));
  const auto result = gpuprof({"report", trace_});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(fs::exists(trace_ + "-wal"));
  EXPECT_FALSE(fs::exists(trace_ + "-shm"));
}

// SQLite's unix VFS stops at 512-byte paths (links resolved first); a long
// path is read through a copy of it with PATH_MAX, immutable and stamp-checked.
class LongPaths : public SmallDefects {
 protected:
  std::string deep_copy(const std::string& name) {
    auto folder = folder_.path();
    for (int level = 0; level < 6; ++level) folder /= std::string(100, 'd');
    fs::create_directories(folder);
    const auto deep = (folder / name).string();
    fs::copy_file(trace_, deep);
    return deep;
  }
};

TEST_F(LongPaths, ATracePastSqlitesPathLimitIsReadLikeAnyOther) {
  const auto deep = deep_copy("T.sqlite");
  ASSERT_GT(fs::absolute(deep).string().size(), 512u);
  const auto near = gpuprof({"report", trace_, "--format", "json"});
  const auto far = gpuprof({"report", deep, "--format", "json"});
  ASSERT_EQ(far.exit_code, 0) << far.err;
  auto far_out = far.out;
  const auto at = far_out.find(deep);
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(far_out.replace(at, deep.size(), trace_), near.out);
  const auto info = gpuprof({"info", deep});
  EXPECT_EQ(info.exit_code, 0) << info.err;
  EXPECT_FALSE(fs::exists(deep + "-journal"));
}

TEST_F(LongPaths, ALongPathBeingWrittenIsRefusedNotReadWithoutLocks) {
  const auto deep = deep_copy("T.sqlite");
  { std::ofstream journal(deep + "-journal"); journal << "x"; }
  expect_bad_input(gpuprof({"report", deep}), deep, "is being written");
}

TEST_F(LongPaths, AnOutputPastSqlitesPathLimitIsExplained) {
  const auto deep = deep_copy("T.sqlite");
  const auto output = fs::path(deep).parent_path() / "out.sqlite";
  const auto result = gpuprof({"synth", "-o", output.string(), "--steps", "3", "--devices", "1"});
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find("bytes SQLite can write"), std::string::npos) << result.err;
  EXPECT_FALSE(fs::exists(output));
}

}  // namespace
}  // namespace gpuprof::testing
