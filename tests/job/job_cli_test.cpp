#include <gtest/gtest.h>

#include <filesystem>

#include "job_test_support.hpp"
#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

namespace fs = std::filesystem;
using testing::TemporaryFolder;

class JobCli : public ::testing::Test {
 protected:
  testing::ProcessResult gpuprof(std::vector<std::string> arguments) {
    arguments.insert(arguments.begin(), GPUPROF_BINARY);
    return testing::run_process(arguments);
  }
  std::string rank(const std::string& name, std::int32_t rank, std::int32_t world_size, std::int32_t devices = 1) {
    synthetic::SynthOptions options;
    options.devices = devices;
    options.steps = 5;
    return testing::write_rank(folder_.file(name), rank, world_size, options);
  }
  TemporaryFolder folder_;
};

TEST_F(JobCli, FolderReportHasJobSectionsInEveryFormat) {
  fs::create_directory(folder_.file("job"));
  rank("job/r0.sqlite", 0, 2);
  rank("job/r1.sqlite", 1, 2);
  for (const std::string format : {"text", "md", "csv", "json", "html"}) {
    const auto result = gpuprof({"report", folder_.file("job"), "--format", format});
    EXPECT_EQ(result.exit_code, 0) << format << ": " << result.err;
    EXPECT_NE(result.out.find(format == "json" ? "clock_alignment" : format == "csv" ? "# stragglers" : "Stragglers"),
              std::string::npos) << format;
  }
}

TEST_F(JobCli, SingleRankReportHasNoJobSections) {
  const auto result = gpuprof({"report", rank("r0.sqlite", 0, 1), "--format", "json"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.find("clock_alignment"), std::string::npos);
}

TEST_F(JobCli, MixedJobsAreRefusedAndNothingIsWritten) {
  const auto a = rank("a.sqlite", 0, 2), b = rank("b.sqlite", 1, 4);
  const auto result = gpuprof({"report", a, b, "-o", folder_.file("out.txt")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("b.sqlite"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("world size"), std::string::npos) << result.err;
  EXPECT_FALSE(fs::exists(folder_.file("out.txt")));
}

TEST_F(JobCli, EmptyFolderIsRefusedByName) {
  fs::create_directory(folder_.file("empty"));
  testing::write_file(folder_.file("empty/notes.txt"), "no traces here");
  for (const std::string command : {"report", "compare"}) {
    std::vector<std::string> arguments = {command, folder_.file("empty")};
    if (command == "compare") arguments.push_back(folder_.file("empty"));
    arguments.insert(arguments.end(), {"-o", folder_.file("out.txt")});
    const auto result = gpuprof(arguments);
    EXPECT_EQ(result.exit_code, 2) << command;
    EXPECT_NE(result.err.find("empty"), std::string::npos) << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_FALSE(fs::exists(folder_.file("out.txt")));
  }
}

TEST_F(JobCli, CompareRefusesDuplicateRanksOnOneSide) {
  const auto a = rank("a.sqlite", 0, 2), b = rank("b.sqlite", 0, 2), c = rank("c.sqlite", 0, 1);
  const auto result = gpuprof({"compare", c, a + "," + b, "-o", folder_.file("out.txt")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("rank 0"), std::string::npos) << result.err;
  EXPECT_FALSE(fs::exists(folder_.file("out.txt")));
}

TEST_F(JobCli, CompareWritesEveryFormat) {
  const auto one = rank("one.sqlite", 0, 1, 1), two = rank("two.sqlite", 0, 1, 2);
  for (const std::string format : {"text", "md", "csv", "json", "html"}) {
    const auto out = folder_.file("compare." + format);
    const auto result = gpuprof({"compare", one, two, "--format", format, "-o", out, "--base-batch", "32",
                                 "--other-batch", "64"});
    EXPECT_EQ(result.exit_code, 0) << format << ": " << result.err;
    EXPECT_GT(testing::read_file(out).size(), 100U) << format;
  }
  EXPECT_NE(testing::read_file(folder_.file("compare.json")).find("\"speedup_basis\": \"throughput\""),
            std::string::npos);
}

// An nvprof file (no rank in it) of process `pid`, from the importer's fixture.
std::string nvprof_file(const std::string& path, std::int64_t pid) {
  testing::execute_sql(path, testing::read_file(GPUPROF_SOURCE_DIR "/tests/importers/data/nvprof_database.sql") +
                                 "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET processId = " + std::to_string(pid) + ";");
  return path;
}

TEST_F(JobCli, RanklessNvprofFilesReportAsRanksInCommandLineOrder) {
  const auto a = nvprof_file(folder_.file("a.nvvp"), 100), b = nvprof_file(folder_.file("b.nvvp"), 200);
  const auto result = gpuprof({"report", b, a, "--format", "json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("\"rank\": 1"), std::string::npos);
  const auto b_notice = result.out.find("b.nvvp has no rank in its meta; it is rank 0");
  EXPECT_NE(b_notice, std::string::npos) << result.out;
  EXPECT_NE(result.out.find("a.nvvp has no rank in its meta; it is rank 1"), std::string::npos) << result.out;
  // --ranks decides instead of the order.
  const auto given = gpuprof({"report", b, a, "--ranks", "1,0", "--format", "json"});
  ASSERT_EQ(given.exit_code, 0) << given.err;
  EXPECT_NE(given.out.find("b.nvvp is rank 1 from --ranks"), std::string::npos) << given.out;
  const auto wrong = gpuprof({"report", b, a, "--ranks", "0"});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_NE(wrong.err.find("--ranks names 1 ranks for 2 trace files"), std::string::npos) << wrong.err;
}

TEST_F(JobCli, NvprofFilesOfOneProcessAreRefused) {
  const auto a = nvprof_file(folder_.file("a.nvvp"), 100), b = nvprof_file(folder_.file("b.nvvp"), 100);
  const auto result = gpuprof({"report", a, b});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("b.nvvp"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("same process"), std::string::npos) << result.err;
}

TEST_F(JobCli, CompareTakesRanksForEachSide) {
  const auto a = nvprof_file(folder_.file("a.nvvp"), 100), b = nvprof_file(folder_.file("b.nvvp"), 200);
  const auto one = rank("one.sqlite", 0, 1);
  const auto result = gpuprof({"compare", one, a + "," + b, "--other-ranks", "1,0", "--format", "json"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("a.nvvp is rank 1 from --ranks"), std::string::npos) << result.out;
}

TEST_F(JobCli, CompareBadOptionsAreBadInput) {
  const auto one = rank("one.sqlite", 0, 1);
  EXPECT_EQ(gpuprof({"compare", one}).exit_code, 2);
  EXPECT_EQ(gpuprof({"compare", one, one, "--format", "pdf"}).exit_code, 2);
  EXPECT_EQ(gpuprof({"compare", one, one, "--base-batch", "0"}).exit_code, 2);
  EXPECT_EQ(gpuprof({"compare", one, folder_.file("absent.sqlite")}).exit_code, 2);
}

}  // namespace
}  // namespace gpuprof
