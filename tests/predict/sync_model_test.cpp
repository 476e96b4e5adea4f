#include <gtest/gtest.h>

#include "gpuprof/predict/sync_model.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

// A fake PCIe box: 1 GB/s to the host, 2 GB/s between GPUs behind one switch, 0.5 across the host bridge.
LinkProfile fake_box() {
  LinkProfile link;
  link.host_gbps = 1.0, link.host_latency_ns = 1'000.0;
  link.peer_gbps = 2.0, link.peer_latency_ns = 2'000.0, link.far_peer_gbps = 0.5;
  return link;
}

constexpr std::int64_t kBytes = 1'000'000;  // 1 ms at 1 GB/s

TEST(SyncModel, ParameterServerOnTheCpuRunsEveryGpusCopiesAtOnceOrInTurn) {
  const auto link = fake_box();
  // Gradients down and parameters up over each GPU's own link: 2 x (1 us + 1 ms), whatever N.
  EXPECT_DOUBLE_EQ(parameter_server_ns(SyncStrategy::ps_cpu, link, 2, kBytes, PathKind::pix, false), 2'002'000.0);
  EXPECT_DOUBLE_EQ(parameter_server_ns(SyncStrategy::ps_cpu, link, 6, kBytes, PathKind::pix, false), 2'002'000.0);
  // One shared path: N times as long.
  EXPECT_DOUBLE_EQ(parameter_server_ns(SyncStrategy::ps_cpu, link, 6, kBytes, PathKind::pix, true), 12'012'000.0);
}

TEST(SyncModel, ParameterServerOnAGpuGrowsWithEveryOtherGpu) {
  const auto link = fake_box();
  // N-1 gradients in and parameters out through GPU 0's link, within one switch: 2 (N-1) x (2 us + 0.5 ms).
  const double two = parameter_server_ns(SyncStrategy::ps_gpu, link, 2, kBytes, PathKind::pix, false);
  EXPECT_DOUBLE_EQ(two, 1'004'000.0);
  EXPECT_DOUBLE_EQ(parameter_server_ns(SyncStrategy::ps_gpu, link, 4, kBytes, PathKind::pix, false), 3 * two);
  // Across the host bridge the slower hop bounds it: 2 x (2 us + 2 ms).
  EXPECT_DOUBLE_EQ(parameter_server_ns(SyncStrategy::ps_gpu, link, 2, kBytes, PathKind::phb, false), 4'004'000.0);
}

TEST(SyncModel, OneGpuAndTheRingHaveNoParameterServerExchange) {
  const auto link = fake_box();
  EXPECT_EQ(parameter_server_ns(SyncStrategy::ps_gpu, link, 1, kBytes, PathKind::pix, false), 0.0);
  EXPECT_EQ(parameter_server_ns(SyncStrategy::ps_cpu, link, 1, kBytes, PathKind::pix, true), 0.0);
  EXPECT_EQ(parameter_server_ns(SyncStrategy::ring_allreduce, link, 8, kBytes, PathKind::sys, true), 0.0);
}

TEST(SyncModel, TheRingIsAsFastAsItsSlowestHop) {
  auto link = fake_box();
  EXPECT_DOUBLE_EQ(ring_bandwidth_share(link, PathKind::pix), 1.0);
  EXPECT_DOUBLE_EQ(ring_bandwidth_share(link, PathKind::nvlink), 1.0);
  EXPECT_DOUBLE_EQ(ring_bandwidth_share(link, PathKind::phb), 0.25);
  EXPECT_DOUBLE_EQ(ring_bandwidth_share(link, PathKind::sys), 0.25);
  link.far_peer_gbps = 0;  // not measured apart: as near
  EXPECT_DOUBLE_EQ(ring_bandwidth_share(link, PathKind::sys), 1.0);
  link.far_peer_gbps = 9;  // a far figure above the near one never speeds the ring up
  EXPECT_DOUBLE_EQ(ring_bandwidth_share(link, PathKind::sys), 1.0);
}

TEST(SyncModel, NamesRoundTripAndUnknownOnesAreRefused) {
  for (const auto& name : sync_names()) EXPECT_EQ(to_string(parse_sync(name, "--sync")), name);
  EXPECT_THROW(parse_sync("ps-tpu", "--sync"), TraceError);
  EXPECT_THROW(parse_sync("", "--sync"), TraceError);
}

}  // namespace
}  // namespace gpuprof::predict
