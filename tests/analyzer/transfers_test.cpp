#include <gtest/gtest.h>

#include "gpuprof/analysis/device_activity.hpp"
#include "gpuprof/analysis/transfers.hpp"
#include "model_builder.hpp"

namespace gpuprof::analysis {
namespace {

using testing::ModelBuilder;
using trace::CopyKind;
using trace::MemoryKind;

// Peer-to-peer copies around three devices, partly hidden behind computation
// on either end; a pageable upload; a download re-uploaded to another GPU.
trace::TraceModel transfer_fixture() {
  ModelBuilder builder;
  builder.memcpy(0, 25, 0, 100, CopyKind::peer_to_peer, 1000, 0, 1);
  builder.memcpy(1, 25, 200, 250, CopyKind::peer_to_peer, 500, 1, 2);
  builder.memcpy(2, 25, 300, 400, CopyKind::peer_to_peer, 2000, 2, 0);
  builder.kernel(1, 7, 0, 60, "k").kernel(0, 7, 80, 90, "k").kernel(2, 7, 350, 360, "k").kernel(0, 7, 390, 420, "k");
  builder.memcpy(0, 7, 500, 600, CopyKind::host_to_device, 4096, trace::kUnknown32, 0, MemoryKind::pageable);
  builder.memcpy(0, 7, 700, 710, CopyKind::device_to_host, 1234, 0, trace::kUnknown32);
  builder.memcpy(1, 7, 720, 730, CopyKind::host_to_device, 1234, trace::kUnknown32, 1, MemoryKind::pinned);
  builder.memcpy(1, 7, 800, 810, CopyKind::device_to_host, 77, 1, trace::kUnknown32);
  builder.memcpy(1, 7, 820, 830, CopyKind::host_to_device, 77, trace::kUnknown32, 1, MemoryKind::pinned);
  return builder.build();
}

const TransferPair* find_pair(const TransferReport& report, CopyKind kind, std::int32_t src, std::int32_t dst) {
  for (const auto& pair : report.pairs) {
    if (pair.kind == kind && pair.src_device == src && pair.dst_device == dst) return &pair;
  }
  return nullptr;
}

TEST(Transfers, PeerToPeerBetweenThreeDevices) {
  const auto model = transfer_fixture();
  const auto report = analyze_transfers(model, build_device_activity(model, KernelClassifier().classify_names(model)));
  const auto* zero_one = find_pair(report, CopyKind::peer_to_peer, 0, 1);
  ASSERT_NE(zero_one, nullptr);
  EXPECT_EQ(zero_one->totals.count, 1);
  EXPECT_EQ(zero_one->totals.bytes, 1000);
  EXPECT_EQ(zero_one->totals.total_ns, 100);
  EXPECT_EQ(zero_one->totals.exposed_ns, 30);  // hidden by device 1 [0,60) and device 0 [80,90)
  EXPECT_DOUBLE_EQ(zero_one->totals.gigabytes_per_second(), 10.0);
  EXPECT_EQ(find_pair(report, CopyKind::peer_to_peer, 1, 2)->totals.exposed_ns, 50);
  EXPECT_EQ(find_pair(report, CopyKind::peer_to_peer, 2, 0)->totals.exposed_ns, 80);

  ASSERT_EQ(report.matrix.devices, (std::vector<std::int32_t>{0, 1, 2}));
  EXPECT_EQ(report.matrix.cells[0][1].bytes, 1000);
  EXPECT_EQ(report.matrix.cells[1][2].bytes, 500);
  EXPECT_EQ(report.matrix.cells[2][0].bytes, 2000);
  EXPECT_EQ(report.matrix.cells[0][0].bytes, 0);
  EXPECT_EQ(report.matrix.cells[1][0].count, 0);
}

TEST(Transfers, KindsAndHostEndpoints) {
  const auto model = transfer_fixture();
  const auto report = analyze_transfers(model, build_device_activity(model, KernelClassifier().classify_names(model)));
  ASSERT_EQ(report.kinds.size(), 3U);
  EXPECT_EQ(report.kinds[0].kind, CopyKind::host_to_device);
  EXPECT_EQ(report.kinds[0].totals.count, 3);
  EXPECT_EQ(report.kinds[0].totals.bytes, 4096 + 1234 + 77);
  EXPECT_EQ(report.kinds[2].kind, CopyKind::peer_to_peer);
  EXPECT_EQ(report.kinds[2].totals.total_ns, 250);
  const auto* upload = find_pair(report, CopyKind::host_to_device, kHost, 1);
  ASSERT_NE(upload, nullptr);
  EXPECT_EQ(upload->totals.count, 2);
  EXPECT_NE(find_pair(report, CopyKind::device_to_host, 0, kHost), nullptr);
}

TEST(Transfers, FlagsPageableUploadsAndHostStagedTraffic) {
  const auto model = transfer_fixture();
  const auto report = analyze_transfers(model, build_device_activity(model, KernelClassifier().classify_names(model)));
  EXPECT_EQ(report.pageable_host_to_device.count, 1);
  EXPECT_EQ(report.pageable_host_to_device.bytes, 4096);
  EXPECT_EQ(report.pageable_host_to_device.total_ns, 100);
  EXPECT_EQ(report.pageable_host_to_device.exposed_ns, 100);
  // 1234 bytes leave GPU 0 and reach GPU 1 through the host; the 77-byte round trip stays on GPU 1.
  EXPECT_EQ(report.host_staged.count, 1);
  EXPECT_EQ(report.host_staged.bytes, 1234);
}

}  // namespace
}  // namespace gpuprof::analysis
