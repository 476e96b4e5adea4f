#include <gtest/gtest.h>

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
void expect_refused(const std::vector<RankIdentity>& identities, const std::string& file) {
  try {
    assign_ranks(identities);
    FAIL() << "expected a refusal naming " << file;
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
    EXPECT_EQ(error.path(), file) << error.what();
  }
}

TEST(RankIdentity, RanksComeFromMeta) {
  EXPECT_EQ(assign_ranks({identity("b", 1), identity("a", 0)}), (std::vector<std::int32_t>{1, 0}));
}

TEST(RankIdentity, LoneFileWithoutRankIsRankZero) {
  EXPECT_EQ(assign_ranks({identity("a", std::nullopt)}), std::vector<std::int32_t>{0});
}

TEST(RankIdentity, DuplicateRankIsRefused) { expect_refused({identity("a", 1), identity("b", 1)}, "b"); }

TEST(RankIdentity, MissingRankAmongSeveralIsRefused) {
  expect_refused({identity("a", 0), identity("b", std::nullopt)}, "b");
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
  EXPECT_EQ(assign_ranks({first, second}).size(), 2U);
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
