// Issue 40: a study folder is an input like a trace file. Its database holds
// no code that reading would run, is a regular file, and neither `study` nor
// `sweep --resume` follows a symbolic link out of the folder.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "gpuprof_command.hpp"
#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

namespace fs = std::filesystem;

void expect_one_line_exit_two(const ProcessResult& result, const std::string& file, const std::string& problem) {
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_NE(result.err.find("gpuprof: " + file), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(problem), std::string::npos) << result.err;
}

class StudyFolderAttacks : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto made = gpuprof(sweep_arguments());
    ASSERT_EQ(made.exit_code, 0) << made.err;
  }
  std::vector<std::string> sweep_arguments() const {
    return {"sweep", "--synthetic", "--workload", "rnn", "--batch", "64", "--gpus", "1", "--steps", "3", "-o", study_};
  }
  void sql(const std::string& statement) const {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(database_.c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, statement.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  TemporaryFolder folder_;
  std::string study_ = folder_.file("study");
  std::string database_ = study_ + "/study.sqlite";
};

TEST_F(StudyFolderAttacks, AGeneratedColumnInTheStudyIsRefusedNeverRun) {
  // Evaluated on every read, it kept `study` busy for minutes at gigabytes before.
  sql("ALTER TABLE runs ADD COLUMN boom TEXT GENERATED ALWAYS AS (printf('%.*c', 100000000, 'x')) VIRTUAL");
  expect_one_line_exit_two(gpuprof({"study", study_}), database_, "generated column runs.boom");
  auto resume = sweep_arguments();
  resume.push_back("--resume");
  expect_one_line_exit_two(gpuprof(resume), database_, "generated column runs.boom");
}

TEST_F(StudyFolderAttacks, AFifoAsTheStudyDatabaseIsRefusedNotWaitedOn) {
  fs::remove(database_);
  ASSERT_EQ(::mkfifo(database_.c_str(), 0600), 0);
  expect_one_line_exit_two(gpuprof({"study", study_}), database_, "is a FIFO");
  auto resume = sweep_arguments();
  resume.push_back("--resume");
  expect_one_line_exit_two(gpuprof(resume), database_, "is a FIFO");
}

std::vector<std::pair<fs::path, fs::file_time_type>> files_and_times(const fs::path& folder) {
  std::vector<std::pair<fs::path, fs::file_time_type>> files;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) files.emplace_back(entry.path(), entry.last_write_time());
  std::sort(files.begin(), files.end());
  return files;
}

TEST_F(StudyFolderAttacks, NeitherStudyNorResumeFollowsALinkOutOfTheFolder) {
  const auto outside = folder_.file("outside");
  fs::rename(study_ + "/traces", outside);
  fs::create_directory_symlink(outside, study_ + "/traces");
  const auto before = files_and_times(outside);
  ASSERT_FALSE(before.empty());
  const auto study = gpuprof({"study", study_});
  EXPECT_EQ(study.exit_code, 2) << study.err;
  EXPECT_NE(study.err.find("symbolic link"), std::string::npos) << study.err;
  sql("DELETE FROM results; UPDATE runs SET status = 'running'");  // so that --resume runs them again
  auto resume = sweep_arguments();
  resume.push_back("--resume");
  const auto resumed = gpuprof(resume);
  EXPECT_EQ(resumed.exit_code, 2) << resumed.err;
  EXPECT_NE(resumed.err.find("symbolic link"), std::string::npos) << resumed.err;
  EXPECT_EQ(files_and_times(outside), before) << "sweep --resume wrote through the link";
}

}  // namespace
}  // namespace gpuprof::testing
