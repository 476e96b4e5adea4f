#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpuprof/analysis/classification.hpp"
#include "gpuprof/analysis/device_activity.hpp"
#include "gpuprof/rank/time_breakdown.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "model_builder.hpp"

namespace gpuprof::analysis {
namespace {

using testing::ModelBuilder;
using trace::CopyKind;

TEST(Classification, NcclAndUserPatterns) {
  const KernelClassifier classifier({"^rccl", "AllGather"});
  EXPECT_EQ(classifier.classify("ncclDevKernel_AllReduce_Sum_bf16_RING_LL"), KernelCategory::communication);
  EXPECT_EQ(classifier.classify("ncclKernel_Broadcast"), KernelCategory::communication);
  EXPECT_EQ(classifier.classify("ncclSomethingElse"), KernelCategory::communication);
  EXPECT_EQ(classifier.classify("rccl_reduce"), KernelCategory::communication);
  EXPECT_EQ(classifier.classify("my_AllGather_kernel"), KernelCategory::communication);
  EXPECT_EQ(classifier.classify("gemm_nccl_fused"), KernelCategory::computation);
  EXPECT_EQ(KernelClassifier().classify("rccl_reduce"), KernelCategory::communication);  // RCCL is built in
  EXPECT_EQ(KernelClassifier().classify("my_AllGather_kernel"), KernelCategory::computation);
  EXPECT_THROW(KernelClassifier({"(unclosed"}), TraceError);
}

// Device 0: compute on two streams [0,100) and [50,150), a memset [300,320),
// comm [120,200) partly hidden, memcpy [180,260) partly behind comm.
// Device 1: comm fully hidden. Device 2: comm not hidden at all.
trace::TraceModel overlap_fixture() {
  ModelBuilder builder;
  builder.kernel(0, 7, 0, 100, "gemm").kernel(0, 13, 50, 150, "relu").memset(0, 7, 300, 320);
  builder.kernel(0, 21, 120, 200, "ncclDevKernel_AllReduce").memcpy(0, 25, 180, 260, CopyKind::host_to_device, 64, trace::kUnknown32, 0);
  builder.kernel(1, 7, 0, 100, "gemm").kernel(1, 21, 10, 20, "ncclKernel_Send");
  builder.kernel(2, 7, 0, 100, "gemm").kernel(2, 21, 200, 300, "ncclKernel_Recv");
  return builder.build();
}

std::vector<DeviceActivity> activity_of(const trace::TraceModel& model) {
  return build_device_activity(model, KernelClassifier().classify_names(model));
}

// A device's sets are its streams' intervals united (each stream's rows in start order, merged as they are read),
// whatever the number of streams: equal to normalize() of every interval, with overlaps and touching intervals
// across streams, empty kernels and a memset stream that adds to the computation.
TEST(DeviceActivity, SetsAreTheUnionOfEveryStreamsIntervals) {
  std::mt19937_64 random(38);
  for (int round = 0; round < 40; ++round) {
    ModelBuilder builder;
    std::vector<Interval> compute, comm, memcpy;
    const int streams = 1 + static_cast<int>(random() % 6);
    for (int stream = 0; stream < streams; ++stream) {
      std::int64_t start = static_cast<std::int64_t>(random() % 100);
      for (int k = 0; k < 30; ++k) {
        start += static_cast<std::int64_t>(random() % 20);
        const auto end = start + static_cast<std::int64_t>(random() % 25);  // some empty, some touching the next
        switch (random() % 4) {
          case 0: builder.kernel(0, stream, start, end, "ncclKernel_AllReduce"), comm.push_back({start, end}); break;
          case 1: builder.memset(0, stream, start, end), compute.push_back({start, end}); break;
          case 2: builder.memcpy(0, stream, start, end, CopyKind::host_to_device, 64, trace::kUnknown32, 0),
                  memcpy.push_back({start, end}); break;
          default: builder.kernel(0, stream, start, end, "gemm"), compute.push_back({start, end}); break;
        }
      }
    }
    const auto activity = activity_of(builder.build());
    ASSERT_EQ(activity.size(), 1u);
    EXPECT_EQ(activity[0].compute, normalize(compute)) << "round " << round;
    EXPECT_EQ(activity[0].comm, normalize(comm)) << "round " << round;
    EXPECT_EQ(activity[0].memcpy, normalize(memcpy)) << "round " << round;
    EXPECT_EQ(activity[0].busy, unite(unite(normalize(compute), normalize(comm)), normalize(memcpy)));
  }
}

TEST(TimeBreakdown, SpanWindowUnionArithmetic) {
  const auto model = overlap_fixture();
  const auto result = compute_breakdown(activity_of(model), {}, false);
  ASSERT_EQ(result.devices.size(), 3U);
  const auto& d0 = result.devices[0].total;
  EXPECT_EQ(result.devices[0].source, WindowSource::span);
  EXPECT_EQ(d0.window_ns, 320);
  EXPECT_EQ(d0.computation_ns, 170);
  EXPECT_EQ(d0.total_comm_ns, 80);
  EXPECT_EQ(d0.exposed_comm_ns, 50);
  EXPECT_EQ(d0.total_memcpy_ns, 80);
  EXPECT_EQ(d0.exposed_memcpy_ns, 60);
  EXPECT_EQ(d0.busy_ns, 280);
  EXPECT_EQ(d0.idle_ns, 40);
  EXPECT_DOUBLE_EQ(d0.comm_hidden_share(), 30.0 / 80.0);
  EXPECT_DOUBLE_EQ(d0.memcpy_hidden_share(), 20.0 / 80.0);

  const auto& d1 = result.devices[1].total;
  EXPECT_EQ(d1.window_ns, 100);
  EXPECT_EQ(d1.total_comm_ns, 10);
  EXPECT_EQ(d1.exposed_comm_ns, 0);
  EXPECT_DOUBLE_EQ(d1.comm_hidden_share(), 1.0);

  const auto& d2 = result.devices[2].total;
  EXPECT_EQ(d2.window_ns, 300);
  EXPECT_EQ(d2.exposed_comm_ns, 100);
  EXPECT_EQ(d2.busy_ns, 200);
  EXPECT_EQ(d2.idle_ns, 100);
}

TEST(TimeBreakdown, StepWindowsSumToTotalsAndSkipWarmupInSteadyState) {
  const auto model = overlap_fixture();
  std::vector<GpuStep> steps = {{0, 0, 0, 160, 160, true, false, 1}, {0, 1, 160, 320, 260, false, false, 1}};
  const auto result = compute_breakdown(activity_of(model), steps, true);
  const auto& device = result.devices[0];
  EXPECT_EQ(device.source, WindowSource::steps);
  ASSERT_EQ(result.steps.size(), 2U);
  const auto& first = result.steps[0].breakdown;
  EXPECT_EQ(first.window_ns, 160);
  EXPECT_EQ(first.computation_ns, 150);
  EXPECT_EQ(first.exposed_comm_ns, 10);
  EXPECT_EQ(first.busy_ns, 160);
  const auto& second = result.steps[1].breakdown;
  EXPECT_EQ(second.computation_ns, 20);
  EXPECT_EQ(second.exposed_comm_ns, 40);
  EXPECT_EQ(second.exposed_memcpy_ns, 60);
  EXPECT_EQ(second.idle_ns, 40);
  EXPECT_EQ(second.batch_gap_ns, 40);  // the tail [260, 320) minus a memset launched outside the step
  EXPECT_EQ(second.idle_in_steps_ns, 0);
  EXPECT_EQ(device.total.busy_ns, 280);
  EXPECT_EQ(device.steady, second);
  EXPECT_EQ(device.steady_steps, 1);
  // Devices without steps keep their span.
  EXPECT_EQ(result.devices[1].source, WindowSource::span);
  EXPECT_EQ(result.devices[1].total.window_ns, 100);
}

TEST(TimeBreakdown, CustomCommPatternMovesKernelToCommunication) {
  ModelBuilder builder;
  builder.kernel(0, 7, 0, 100, "gemm").kernel(0, 9, 50, 150, "custom_allreduce");
  const auto model = builder.build();
  const auto activity = build_device_activity(model, KernelClassifier({"allreduce"}).classify_names(model));
  const auto b = breakdown_in(activity[0], 0, 150);
  EXPECT_EQ(b.computation_ns, 100);
  EXPECT_EQ(b.total_comm_ns, 100);
  EXPECT_EQ(b.exposed_comm_ns, 50);
}

}  // namespace
}  // namespace gpuprof::analysis
