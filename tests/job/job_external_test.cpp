#include <gtest/gtest.h>

#include <cstdlib>

#include "gpuprof/job/job_analysis.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::job {
namespace {

TEST(JobExternal, DlrmEightRanksMergeIntoOneJob) {
  const auto data = gpuprof::testing::external_data_dir();
  if (data.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  const auto job = analyze_job({(data / "dlrm-8rank").string()}, {});
  ASSERT_EQ(job.ranks.size(), 8U);
  for (std::int32_t rank = 0; rank < 8; ++rank) {
    EXPECT_EQ(job.ranks[rank].analysis.rank, rank);
    EXPECT_FALSE(job.ranks[rank].collectives.empty()) << "rank " << rank;
    EXPECT_EQ(job.ranks[rank].collectives.front().name.rfind("nccl", 0), 0U);
  }
  // The ranks share one clock: whatever aligned them finds (almost) nothing to correct.
  ASSERT_EQ(job.clocks.offsets.size(), 8U);
  for (const auto& offset : job.clocks.offsets) EXPECT_LE(std::llabs(offset.offset_ns), 50'000) << offset.rank;
  EXPECT_EQ(job.stragglers.job.ranks, 8);
  EXPECT_GE(job.stragglers.steps.size(), 8U);
  EXPECT_EQ(job.stragglers.ranks.size(), 8U);
}

TEST(JobExternal, HtaSampledRanksPairIntoOneJob) {
  const auto data = gpuprof::testing::external_data_dir();
  if (data.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  const auto job = analyze_job({(data / "hta/sampled_rank-1.json.gz").string(),
                                (data / "hta/sampled_rank-0.json.gz").string()}, {});
  ASSERT_EQ(job.ranks.size(), 2U);
  EXPECT_EQ(job.ranks[0].analysis.rank, 0);
  EXPECT_EQ(job.ranks[1].analysis.rank, 1);
  EXPECT_EQ(job.clocks.offsets.size(), 2U);
  EXPECT_EQ(job.stragglers.ranks.size(), 2U);
}

// nvprof files carry no rank: the command-line order gives it, with a notice per file.
TEST(JobExternal, TwoNvprofFilesReportAsTwoRanks) {
  const auto data = gpuprof::testing::external_data_dir();
  if (data.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  const auto folder = data / "nvprof-magma";
  const auto job = analyze_job({(folder / "magma-2.0.2_testing_dgeqrf_k20c.nvvp").string(),
                                (folder / "magma-1.6.1_testing_dgetrf_k20c.nvvp").string()}, {});
  ASSERT_EQ(job.ranks.size(), 2U);
  EXPECT_EQ(job.ranks[0].analysis.rank, 0);
  EXPECT_NE(job.ranks[0].input.find("magma-2.0.2"), std::string::npos);
  EXPECT_EQ(job.ranks[1].analysis.rank, 1);
  EXPECT_NE(job.ranks[1].input.find("magma-1.6.1"), std::string::npos);
  std::size_t position_notices = 0;
  for (const auto& notice : job.notices) position_notices += notice.find("from its position") != std::string::npos;
  EXPECT_EQ(position_notices, 2U);
  // A folder gives its files in name order.
  const auto by_folder = analyze_job({folder.string()}, {});
  ASSERT_EQ(by_folder.ranks.size(), 2U);
  EXPECT_NE(by_folder.ranks[0].input.find("magma-1.6.1"), std::string::npos);
}

}  // namespace
}  // namespace gpuprof::job
