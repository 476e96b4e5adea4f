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

}  // namespace
}  // namespace gpuprof::job
