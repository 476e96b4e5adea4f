// Collective bandwidth with NCCL tests' definitions (nccl-tests doc/PERFORMANCE.md):
// algbw = S / mean time, busbw = algbw x factor, on hand-made traces with known answers.
#include <gtest/gtest.h>

#include "gpuprof/analysis/collectives.hpp"
#include "model_builder.hpp"

namespace gpuprof::analysis {
namespace {

using testing::ModelBuilder;
using trace::kUnknown;

const CollectiveGroup* find(const CollectiveReport& report, std::string_view name, std::int64_t group_size,
                            std::int64_t bytes) {
  for (const auto& group : report.groups) {
    if (group.name == name && group.group_size == group_size && group.bytes == bytes) return &group;
  }
  return nullptr;
}

TEST(CollectiveKinds, PyTorchAndNcclSpellingsMeet) {
  EXPECT_EQ(collective_kind("allreduce"), CollectiveKind::all_reduce);
  EXPECT_EQ(collective_kind("allreduce_coalesced"), CollectiveKind::all_reduce);
  EXPECT_EQ(collective_kind("AllReduce"), CollectiveKind::all_reduce);
  EXPECT_EQ(collective_kind("_allgather_base"), CollectiveKind::all_gather);
  EXPECT_EQ(collective_kind("allgather_into_tensor_coalesced"), CollectiveKind::all_gather);
  EXPECT_EQ(collective_kind("_reduce_scatter_base"), CollectiveKind::reduce_scatter);
  EXPECT_EQ(collective_kind("all_to_all"), CollectiveKind::all_to_all);
  EXPECT_EQ(collective_kind("alltoall_base"), CollectiveKind::all_to_all);
  EXPECT_EQ(collective_kind("broadcast"), CollectiveKind::broadcast);
  EXPECT_EQ(collective_kind("reduce"), CollectiveKind::reduce);
  EXPECT_EQ(collective_kind("send"), CollectiveKind::send);
  EXPECT_EQ(collective_kind("recvAnysource"), CollectiveKind::recv);
  EXPECT_EQ(collective_kind("nccl:all_reduce"), CollectiveKind::all_reduce);
  EXPECT_EQ(collective_kind("barrier"), CollectiveKind::other);
  EXPECT_EQ(collective_kind("gather"), CollectiveKind::other);
}

TEST(CollectiveKinds, BusBandwidthFactorsAreNcclTests) {
  EXPECT_DOUBLE_EQ(*bus_bandwidth_factor(CollectiveKind::all_reduce, 4), 1.5);
  EXPECT_DOUBLE_EQ(*bus_bandwidth_factor(CollectiveKind::all_reduce, 2), 1.0);
  EXPECT_DOUBLE_EQ(*bus_bandwidth_factor(CollectiveKind::all_gather, 8), 0.875);
  EXPECT_DOUBLE_EQ(*bus_bandwidth_factor(CollectiveKind::reduce_scatter, 4), 0.75);
  EXPECT_DOUBLE_EQ(*bus_bandwidth_factor(CollectiveKind::all_to_all, 2), 0.5);
  EXPECT_DOUBLE_EQ(*bus_bandwidth_factor(CollectiveKind::broadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(*bus_bandwidth_factor(CollectiveKind::reduce, 8), 1.0);
  EXPECT_DOUBLE_EQ(*bus_bandwidth_factor(CollectiveKind::send, 2), 1.0);
  EXPECT_DOUBLE_EQ(*bus_bandwidth_factor(CollectiveKind::recv, 2), 1.0);
  EXPECT_EQ(bus_bandwidth_factor(CollectiveKind::other, 4), std::nullopt);
  EXPECT_EQ(bus_bandwidth_factor(CollectiveKind::all_reduce, 0), std::nullopt);
  EXPECT_EQ(bus_bandwidth_factor(CollectiveKind::all_reduce, kUnknown), std::nullopt);
}

// All-gather is sized by its output, reduce-scatter by its input: the whole array in both.
TEST(CollectiveKinds, OperationSizeIsTheWholeArray) {
  EXPECT_EQ(operation_bytes(CollectiveKind::all_gather, 100, 400), 400);
  EXPECT_EQ(operation_bytes(CollectiveKind::reduce_scatter, 400, 100), 400);
  EXPECT_EQ(operation_bytes(CollectiveKind::all_reduce, 400, 400), 400);
  EXPECT_EQ(operation_bytes(CollectiveKind::all_to_all, 800, 800), 800);
  EXPECT_EQ(operation_bytes(CollectiveKind::send, 64, kUnknown), 64);
  EXPECT_EQ(operation_bytes(CollectiveKind::recv, kUnknown, 64), 64);
  EXPECT_EQ(operation_bytes(CollectiveKind::all_gather, 100, kUnknown), std::nullopt);
  EXPECT_EQ(operation_bytes(CollectiveKind::other, 100, 100), std::nullopt);
}

TEST(Collectives, ExactBandwidthsPerKindAndSize) {
  // Two 1 MB all-reduces over 4 ranks taking 100 and 300 us: mean 200 us, algbw 5 GB/s, busbw 5 x 1.5.
  // One all-gather of 4 x 1 MB chunks over 4 ranks in 400 us: algbw 10 GB/s, busbw 10 x 0.75.
  // One broadcast of 2 MB over 8 ranks in 1 ms: 2 GB/s both.
  const auto model = ModelBuilder()
                         .kernel(0, 7, 0, 100'000, "ncclKernel_AllReduce", 1)
                         .kernel(0, 7, 200'000, 500'000, "ncclKernel_AllReduce", 2)
                         .kernel(0, 7, 600'000, 1'000'000, "ncclKernel_AllGather", 3)
                         .kernel(0, 7, 1'100'000, 2'100'000, "ncclKernel_Broadcast", 4)
                         .collective(0, 1, "allreduce", 1'000'000, 1'000'000, 4)
                         .collective(0, 2, "allreduce", 1'000'000, 1'000'000, 4)
                         .collective(0, 3, "_allgather_base", 1'000'000, 4'000'000, 4)
                         .collective(0, 4, "broadcast", 2'000'000, 2'000'000, 8)
                         .build();
  const auto report = analyze_collectives(model);
  ASSERT_EQ(report.groups.size(), 3U);
  EXPECT_EQ(report.rows, 4);
  EXPECT_EQ(report.unmatched + report.ambiguous, 0);

  const auto* all_reduce = find(report, "all_reduce", 4, 1'000'000);
  ASSERT_NE(all_reduce, nullptr);
  EXPECT_EQ(all_reduce->count, 2);
  EXPECT_EQ(all_reduce->bytes, 1'000'000);
  EXPECT_EQ(all_reduce->total_ns, 400'000);
  EXPECT_DOUBLE_EQ(all_reduce->mean_ns, 200'000.0);
  EXPECT_DOUBLE_EQ(*all_reduce->algorithm_gbps, 5.0);
  EXPECT_DOUBLE_EQ(*all_reduce->bus_gbps, 7.5);

  const auto* all_gather = find(report, "all_gather", 4, 4'000'000);
  ASSERT_NE(all_gather, nullptr);
  EXPECT_EQ(all_gather->bytes, 4'000'000);
  EXPECT_DOUBLE_EQ(*all_gather->algorithm_gbps, 10.0);
  EXPECT_DOUBLE_EQ(*all_gather->bus_gbps, 7.5);

  const auto* broadcast = find(report, "broadcast", 8, 2'000'000);
  ASSERT_NE(broadcast, nullptr);
  EXPECT_DOUBLE_EQ(*broadcast->algorithm_gbps, 2.0);
  EXPECT_DOUBLE_EQ(*broadcast->bus_gbps, 2.0);
}

// Sizes split groups; unknown sizes, group sizes and kinds leave the bandwidths unknown, not zero.
TEST(Collectives, UnknownValuesGiveNoBandwidth) {
  const auto model = ModelBuilder()
                         .kernel(0, 7, 0, 1000, "ncclKernel_AllReduce", 1)
                         .kernel(0, 7, 2000, 3000, "ncclKernel_AllReduce", 2)
                         .kernel(0, 7, 4000, 5000, "ncclKernel_AllReduce", 3)
                         .kernel(0, 7, 6000, 7000, "ncclKernel_Barrier", 4)
                         .collective(0, 1, "allreduce", 4000, 4000, 2)
                         .collective(0, 2, "allreduce", kUnknown, kUnknown, 2)
                         .collective(0, 3, "allreduce", 4000, 4000, kUnknown)
                         .collective(0, 4, "barrier", 4, 4, 2)
                         .build();
  const auto report = analyze_collectives(model);
  ASSERT_EQ(report.groups.size(), 4U);
  std::int64_t counted = 0;
  for (const auto& group : report.groups) counted += group.count;
  EXPECT_EQ(counted, 4);
  const auto* known = find(report, "all_reduce", 2, 4000);
  ASSERT_NE(known, nullptr);
  const auto* no_size = find(report, "all_reduce", 2, kUnknown);  // a group of its own
  ASSERT_NE(no_size, nullptr);
  EXPECT_EQ(no_size->count, 1);
  EXPECT_EQ(no_size->algorithm_gbps, std::nullopt);
  EXPECT_EQ(no_size->bus_gbps, std::nullopt);
  EXPECT_DOUBLE_EQ(*known->algorithm_gbps, 4.0);
  EXPECT_DOUBLE_EQ(*known->bus_gbps, 4.0);
  const auto* no_group = find(report, "all_reduce", kUnknown, 4000);
  ASSERT_NE(no_group, nullptr);
  EXPECT_DOUBLE_EQ(*no_group->algorithm_gbps, 4.0);
  EXPECT_EQ(no_group->bus_gbps, std::nullopt);
  const auto* barrier = find(report, "barrier", 2, kUnknown);
  ASSERT_NE(barrier, nullptr);
  EXPECT_EQ(barrier->kind, CollectiveKind::other);
  EXPECT_EQ(barrier->algorithm_gbps, std::nullopt);
}

// A row whose kernel is missing, or shared by several kernels (a CUDA graph), is counted, never guessed.
TEST(Collectives, RowsWithoutOneKernelAreCountedNotGuessed) {
  const auto model = ModelBuilder()
                         .kernel(0, 7, 0, 1000, "ncclKernel_AllReduce", 1)
                         .kernel(0, 7, 2000, 3000, "ncclKernel_AllReduce", 2)
                         .kernel(0, 8, 2000, 3000, "ncclKernel_AllReduce", 2)
                         .collective(0, 1, "allreduce", 4000, 4000, 2)
                         .collective(0, 2, "allreduce", 4000, 4000, 2)
                         .collective(1, 1, "allreduce", 4000, 4000, 2)
                         .collective(0, 99, "allreduce", 4000, 4000, 2)
                         .build();
  const auto report = analyze_collectives(model);
  EXPECT_EQ(report.rows, 4);
  EXPECT_EQ(report.ambiguous, 1);
  EXPECT_EQ(report.unmatched, 2);
  ASSERT_EQ(report.groups.size(), 1U);
  EXPECT_EQ(report.groups[0].count, 1);
  EXPECT_EQ(report.groups[0].count + report.ambiguous + report.unmatched, report.rows);
}

}  // namespace
}  // namespace gpuprof::analysis
