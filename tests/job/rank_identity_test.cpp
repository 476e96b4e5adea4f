#include <gtest/gtest.h>

#include <filesystem>

#include "gpuprof/job/job_inputs.hpp"
#include "gpuprof/job/rank_identity.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "job_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::job {
namespace {

RankIdentity identity(const std::string& input, std::optional<std::int32_t> rank,
                      std::optional<std::int32_t> world_size = 4) {
  RankIdentity result;
  result.input = input;
  result.trace_path = input;
  result.rank = rank;
  result.world_size = world_size;
  result.source_format = "collector";
  result.command_line = "python train.py";
  return result;
}

// The message names the offending file so the user knows which one to drop.
void expect_refused(const std::vector<RankIdentity>& identities, const std::string& file,
                    const std::vector<std::int32_t>& given = {}) {
  try {
    assign_ranks(identities, given);
    FAIL() << "expected a refusal naming " << file;
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
    EXPECT_EQ(error.path(), file) << error.what();
  }
}

TEST(RankIdentity, RanksComeFromMeta) {
  const auto assignment = assign_ranks({identity("b", 1), identity("a", 0)});
  EXPECT_EQ(assignment.ranks, (std::vector<std::int32_t>{1, 0}));
  EXPECT_TRUE(assignment.notices.empty());
}

TEST(RankIdentity, LoneFileWithoutRankIsRankZero) {
  EXPECT_EQ(assign_ranks({identity("a", std::nullopt)}).ranks, std::vector<std::int32_t>{0});
}

TEST(RankIdentity, DuplicateRankIsRefused) { expect_refused({identity("a", 1), identity("b", 1)}, "b"); }

TEST(RankIdentity, MissingRankAmongSeveralIsRefused) {
  expect_refused({identity("a", 0), identity("b", std::nullopt)}, "b");
}

// nvprof files and the like: one process each, no rank, told apart by pid.
RankIdentity rankless(const std::string& input, std::int64_t pid, std::int64_t start_ns = 100) {
  auto result = identity(input, std::nullopt, std::nullopt);
  result.source_format = "nvprof";
  result.command_line.clear();
  result.pid = pid;
  result.start_ns = start_ns;
  result.end_ns = start_ns + 1000;
  return result;
}

TEST(RankIdentity, RanklessFilesTakeTheirPositionWithANoticeEach) {
  const auto assignment = assign_ranks({rankless("b.nvvp", 20), rankless("a.nvvp", 10), rankless("c.nvvp", 30)});
  EXPECT_EQ(assignment.ranks, (std::vector<std::int32_t>{0, 1, 2}));
  ASSERT_EQ(assignment.notices.size(), 3U);
  EXPECT_NE(assignment.notices[1].find("a.nvvp"), std::string::npos) << assignment.notices[1];
  EXPECT_NE(assignment.notices[1].find("rank 1"), std::string::npos) << assignment.notices[1];
}

TEST(RankIdentity, RanklessFilesOfOneProcessAreRefused) {
  expect_refused({rankless("a.nvvp", 10), rankless("b.nvvp", 10, 500)}, "b.nvvp");
  // The same pid at other times is another process (pids are reused).
  EXPECT_EQ(assign_ranks({rankless("a.nvvp", 10), rankless("b.nvvp", 10, 5000)}).ranks.size(), 2U);
  // ...and on another host too.
  auto other_host = rankless("b.nvvp", 10, 500);
  other_host.host_name = "node7";
  EXPECT_EQ(assign_ranks({rankless("a.nvvp", 10), other_host}).ranks.size(), 2U);
  // Ranks in separate containers may share a pid: --ranks lets the user say so.
  EXPECT_EQ(assign_ranks({rankless("a.nvvp", 10), rankless("b.nvvp", 10, 500)}, {0, 1}).ranks.size(), 2U);
}

TEST(RankIdentity, OneFileNamedTwiceIsRefused) {
  gpuprof::testing::TemporaryFolder folder;
  gpuprof::testing::write_file(folder.file("a.nvvp"), "x");
  const auto twice = folder.file("sub/../a.nvvp");
  std::filesystem::create_directory(folder.file("sub"));
  expect_refused({rankless(folder.file("a.nvvp"), 10), rankless(twice, 20, 9000)}, twice);
}

TEST(RankIdentity, GivenRanksOverrideMetaWithANotice) {
  const auto assignment = assign_ranks({identity("a", 0), identity("b", 1), identity("c", 2)}, {2, 1, 0});
  EXPECT_EQ(assignment.ranks, (std::vector<std::int32_t>{2, 1, 0}));
  ASSERT_EQ(assignment.notices.size(), 2U);  // b keeps the rank its meta gives
  EXPECT_NE(assignment.notices[0].find("its meta says 0"), std::string::npos) << assignment.notices[0];
  EXPECT_EQ(assign_ranks({rankless("a.nvvp", 1), rankless("b.nvvp", 2)}, {1, 0}).ranks,
            (std::vector<std::int32_t>{1, 0}));
}

TEST(RankIdentity, GivenRanksMustBeOnePerFileAndDistinct) {
  expect_refused({rankless("a.nvvp", 1), rankless("b.nvvp", 2)}, "a.nvvp", {0});
  expect_refused({rankless("a.nvvp", 1), rankless("b.nvvp", 2)}, "b.nvvp", {3, 3});
  expect_refused({rankless("a.nvvp", 1), rankless("b.nvvp", 2)}, "a.nvvp", {-1, 0});
  expect_refused({identity("a", 0), identity("b", 1)}, "b", {0, 4});  // outside world size 4
}

TEST(RankIdentity, DifferentWorldSizesAreRefused) { expect_refused({identity("a", 0), identity("b", 1, 8)}, "b"); }

TEST(RankIdentity, RankOutsideWorldIsRefused) { expect_refused({identity("a", 0), identity("b", 4)}, "b"); }

TEST(RankIdentity, DifferentJobIdsAreRefused) {
  auto other = identity("b", 1);
  other.job_id = "1234";
  auto first = identity("a", 0);
  first.job_id = "9999";
  expect_refused({first, other}, "b");
}

TEST(RankIdentity, DifferentProfiledCommandsAreRefused) {
  auto other = identity("b", 1);
  other.command_line = "python eval.py";
  expect_refused({identity("a", 0), other}, "b");
}

TEST(RankIdentity, GeneratorCommandLinesMayDiffer) {
  auto first = identity("a", 0), second = identity("b", 1);
  first.source_format = second.source_format = "synthetic";
  second.command_line = "gpuprof synth --rank 1";
  EXPECT_EQ(assign_ranks({first, second}).ranks.size(), 2U);
}

TEST(RankIdentity, ReadsMetaOfTraceFile) {
  gpuprof::testing::TemporaryFolder folder;
  const auto path = gpuprof::testing::write_rank(folder.file("r3.sqlite"), 3, 4);
  const auto read = read_identity("given-name", path);
  EXPECT_EQ(read.input, "given-name");
  EXPECT_EQ(read.rank, 3);
  EXPECT_EQ(read.world_size, 4);
  EXPECT_EQ(read.source_format, "synthetic");
}

TEST(JobInputs, FolderBecomesItsTracesSortedAndSkipsOtherFiles) {
  gpuprof::testing::TemporaryFolder folder;
  gpuprof::testing::write_rank(folder.file("b.sqlite"), 1, 2);
  gpuprof::testing::write_rank(folder.file("a.sqlite"), 0, 2);
  gpuprof::testing::write_file(folder.file("README"), "not a trace");
  const auto paths = expand_inputs({folder.path().string()});
  ASSERT_EQ(paths.size(), 2U);
  EXPECT_EQ(paths[0], folder.file("a.sqlite"));
  EXPECT_EQ(paths[1], folder.file("b.sqlite"));
}

TEST(JobInputs, FolderWithoutTracesIsRefusedByName) {
  gpuprof::testing::TemporaryFolder folder;
  gpuprof::testing::write_file(folder.file("README"), "not a trace");
  try {
    expand_inputs({folder.path().string()});
    FAIL();
  } catch (const TraceError& error) {
    EXPECT_EQ(error.path(), folder.path().string());
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
  }
}

TEST(JobInputs, MissingPathIsRefused) {
  EXPECT_THROW(expand_inputs({"/nonexistent/gpuprof/trace.sqlite"}), TraceError);
}

}  // namespace
}  // namespace gpuprof::job
