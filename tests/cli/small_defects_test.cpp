// The smaller defects of issue 27: --save failing after the report was printed,
// temporary names past NAME_MAX for long output names, a study naming traces
// outside its folder, an Nsight Systems kernel table that is a view, and -wal
// and -shm files created beside a WAL-mode input, paths too long for SQLite.
#include <sqlite3.h>

#include <filesystem>
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

TEST_F(SmallDefects, AWalInputGetsNoSideFiles) {
  run_sql(trace_, "PRAGMA journal_mode = WAL");
  ASSERT_FALSE(fs::exists(trace_ + "-wal"));
  const auto result = gpuprof({"report", trace_});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(fs::exists(trace_ + "-wal"));
  EXPECT_FALSE(fs::exists(trace_ + "-shm"));
}

// SQLite cannot open a path past 512 bytes (links are resolved first): say so, naming the file.
TEST_F(SmallDefects, APathPastSqlitesLimitIsExplained) {
  auto folder = folder_.path();
  for (int level = 0; level < 6; ++level) folder /= std::string(100, 'd');
  fs::create_directories(folder);
  const auto deep = (folder / "T.sqlite").string();
  fs::copy_file(trace_, deep);
  expect_bad_input(gpuprof({"report", deep}), deep, "longer than the 512 bytes SQLite can open");
}

}  // namespace
}  // namespace gpuprof::testing
