#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpuprof/job/clock_alignment.hpp"
#include "gpuprof/job/collective_groups.hpp"
#include "gpuprof/job/collective_waits.hpp"

// Which kernels of a job can be one collective (issue 39): point-to-point kernels of a subset of ranks are
// not matched, and matches whose ends lie further apart than the kernels last are said to be doubtful.

namespace gpuprof::job {
namespace {

constexpr std::int64_t kMs = 1'000'000;
const std::string kSendRecv = "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)";
const std::string kAllReduce = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)";

// One rank of `world` whose kernels named `name` start at `starts` and last `length` each.
RankSummary rank_with(std::int32_t rank, std::optional<std::int32_t> world, const std::string& name,
                      const std::vector<std::int64_t>& starts, std::int64_t length) {
  RankSummary summary;
  summary.analysis.rank = rank;
  summary.world_size = world;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    summary.collectives.push_back({name, 0, static_cast<std::int64_t>(i), starts[i], starts[i] + length, {}, 0});
  }
  return summary;
}

bool any_notice_has(const std::vector<std::string>& notices, const std::string& part) {
  for (const auto& notice : notices) {
    if (notice.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(CollectiveMatching, PointToPointKernelNamesAreKnown) {
  EXPECT_TRUE(is_point_to_point(kSendRecv));
  EXPECT_TRUE(is_point_to_point("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"));
  EXPECT_TRUE(is_point_to_point("ncclKernel_Send_RING_SIMPLE_Sum_int8_t"));
  EXPECT_TRUE(is_point_to_point("ncclKernel_Recv_RING_SIMPLE_Sum_int8_t"));
  EXPECT_FALSE(is_point_to_point(kAllReduce));
  EXPECT_FALSE(is_point_to_point("ncclDevKernel_ReduceScatter_Sum_f32_RING_LL"));
}

// 2 ranks of 128 whose SendRecv kernels start 20 ms apart: they need not be exchanges with each other, so
// no rank waits for the other, the clocks are not aligned by them, and the notices say why.
TEST(CollectiveMatching, SendRecvOfTwoRanksOfALargerJobAreNotMatched) {
  std::vector<RankSummary> ranks{rank_with(0, 128, kSendRecv, {0, 100 * kMs}, 5 * kMs),
                                 rank_with(1, 128, kSendRecv, {20 * kMs, 140 * kMs}, 5 * kMs)};
  EXPECT_FALSE(holds_whole_world(ranks));
  const auto clocks = align_clocks(ranks);
  EXPECT_EQ(clocks.method, ClockMethod::none);
  EXPECT_EQ(clocks.offset_of(1), 0);
  const auto groups = match_collectives(ranks, clocks);
  for (const auto& [key, group] : groups) EXPECT_EQ(group.ranks, 1U) << key.first;
  const auto waits = compute_collective_waits(ranks, groups);
  for (const auto& rank : waits) {
    for (const auto wait : rank) EXPECT_EQ(wait, 0);
  }
  const auto notices = collective_match_notices(ranks, groups, clocks);
  EXPECT_TRUE(any_notice_has(notices, "4 point-to-point kernels")) << ::testing::PrintToString(notices);
  EXPECT_TRUE(any_notice_has(notices, "2 of 128 ranks")) << ::testing::PrintToString(notices);
}

// The same kernels in a job that holds its whole world (DLRM's all-to-all of sends and receives) are one
// collective per ordinal, as before.
TEST(CollectiveMatching, SendRecvOfAWholeWorldAreMatched) {
  std::vector<RankSummary> ranks{rank_with(0, 2, kSendRecv, {0, 100 * kMs}, 5 * kMs),
                                 rank_with(1, 2, kSendRecv, {1 * kMs, 101 * kMs}, 4 * kMs)};
  EXPECT_TRUE(holds_whole_world(ranks));
  const auto clocks = align_clocks(ranks);
  EXPECT_EQ(clocks.method, ClockMethod::collectives);
  const auto groups = match_collectives(ranks, clocks);
  ASSERT_EQ(groups.size(), 2U);
  for (const auto& [key, group] : groups) EXPECT_EQ(group.ranks, 2U);
  EXPECT_EQ(compute_collective_waits(ranks, groups)[0][0], 1 * kMs);
  EXPECT_TRUE(collective_match_notices(ranks, groups, clocks).empty());
}

// All-reduces (of every rank of their group) are matched whatever the job holds; when their ends, once
// aligned, lie further apart than the kernels last, the match and the clock offset are said to be doubtful.
TEST(CollectiveMatching, MatchesEndingFurtherApartThanTheKernelsLastAreDoubtful) {
  // Rank 1 ends its kernels 0, 60 and 3 ms after rank 0's: the offset's estimates spread 60 ms, kernels last 2.
  std::vector<RankSummary> ranks{rank_with(0, 128, kAllReduce, {0, 100 * kMs, 200 * kMs}, 2 * kMs),
                                 rank_with(1, 128, kAllReduce, {0, 160 * kMs, 203 * kMs}, 2 * kMs)};
  const auto clocks = align_clocks(ranks);
  EXPECT_EQ(clocks.method, ClockMethod::collectives);
  EXPECT_TRUE(any_notice_has(clocks.notices, "over its 3 matched collectives, more than the kernels last"))
      << ::testing::PrintToString(clocks.notices);
  const auto groups = match_collectives(ranks, clocks);
  const auto notices = collective_match_notices(ranks, groups, clocks);
  EXPECT_TRUE(any_notice_has(notices, "2 of 3 matched collectives end further apart")) << ::testing::PrintToString(notices);
  // Ends within the kernels' length are a real collective: no notice.
  std::vector<RankSummary> close{rank_with(0, 2, kAllReduce, {0, 100 * kMs}, 2 * kMs),
                                 rank_with(1, 2, kAllReduce, {1 * kMs, 100 * kMs + 500'000}, 2 * kMs)};
  const auto close_clocks = align_clocks(close);
  EXPECT_TRUE(close_clocks.notices.empty()) << ::testing::PrintToString(close_clocks.notices);
  EXPECT_TRUE(collective_match_notices(close, match_collectives(close, close_clocks), close_clocks).empty());
}

}  // namespace
}  // namespace gpuprof::job
