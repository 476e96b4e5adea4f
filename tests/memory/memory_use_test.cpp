// Memory in use over time from hand-made event tables with exact expected
// values: the running sum, a trace started mid-run (baseline), recorded
// totals and their mismatches, host memory kept out, thinning keeping peaks.
#include <gtest/gtest.h>

#include <algorithm>

#include "gpuprof/memory/memory_use.hpp"
#include "model_builder.hpp"

namespace gpuprof::memory {
namespace {

using trace::MemoryKind;
using trace::MemoryOperation;

struct Event {
  std::int32_t device;
  std::int64_t time_ns;
  MemoryOperation operation;
  std::int64_t bytes;
  std::int64_t allocated_after = trace::kUnknown;
  MemoryKind kind = MemoryKind::device;
};

constexpr auto kAlloc = MemoryOperation::alloc;
constexpr auto kFree = MemoryOperation::free;

trace::TraceModel model_of(const std::vector<Event>& events) {
  testing::ModelBuilder builder;
  for (const auto& e : events) {
    builder.memory_event(e.device, e.time_ns, e.operation, e.bytes, e.allocated_after, e.kind);
  }
  return builder.build();
}

std::vector<std::int64_t> values(const DeviceMemory& device) {
  std::vector<std::int64_t> bytes;
  for (const auto& point : device.timeline) bytes.push_back(point.bytes);
  return bytes;
}

TEST(MemoryUse, RunningSumGivesPeakWhenAndFinal) {
  auto model = model_of({{0, 10, kAlloc, 100}, {0, 20, kAlloc, 50}, {0, 30, kFree, 100}, {0, 50, kAlloc, 10},
                         {1, 5, kAlloc, 7}});
  model.devices.push_back({.id = 0, .memory_bytes = 1000});
  const auto use = analyze_memory(model);
  EXPECT_TRUE(use.recorded());
  EXPECT_EQ(use.events, 5);
  ASSERT_EQ(use.devices.size(), 2u);
  const auto& d = use.devices[0];
  EXPECT_EQ(d.source, InUseSource::running_sum);
  EXPECT_EQ(values(d), (std::vector<std::int64_t>{100, 150, 50, 60}));
  EXPECT_EQ(d.allocations, 3);
  EXPECT_EQ(d.frees, 1);
  EXPECT_EQ(d.allocated_bytes, 160);
  EXPECT_EQ(d.freed_bytes, 100);
  EXPECT_EQ(d.baseline_bytes, 0);
  EXPECT_EQ(d.peak_bytes, 150);
  EXPECT_EQ(d.peak_time_ns, 20);
  EXPECT_EQ(d.final_bytes, 60);
  EXPECT_EQ(d.capacity_bytes, 1000);
  // (100*10 + 150*10 + 50*20) / 40
  EXPECT_DOUBLE_EQ(d.mean_bytes, 87.5);
  EXPECT_EQ(use.devices[1].device, 1);
  EXPECT_EQ(use.devices[1].capacity_bytes, trace::kUnknown);
  EXPECT_TRUE(use.notices.empty());
}

// Frees of memory allocated before the trace began: the smallest baseline that
// keeps the in-use figure at or above zero, said in a notice.
TEST(MemoryUse, ATraceStartedMidRunGetsAStatedBaseline) {
  const auto use = analyze_memory(model_of({{0, 10, kFree, 300}, {0, 20, kAlloc, 100}, {0, 30, kFree, 50}}));
  const auto& d = use.devices[0];
  EXPECT_EQ(d.baseline_bytes, 300);
  EXPECT_EQ(values(d), (std::vector<std::int64_t>{0, 100, 50}));
  EXPECT_EQ(d.baseline_bytes + d.allocated_bytes - d.freed_bytes, d.final_bytes);
  ASSERT_EQ(use.notices.size(), 1u);
  EXPECT_NE(use.notices[0].find("baseline of 300 bytes"), std::string::npos) << use.notices[0];
}

TEST(MemoryUse, RecordedTotalsAreFollowedAndMismatchesCounted) {
  const auto use = analyze_memory(model_of({{0, 10, kAlloc, 100, 1100}, {0, 20, kAlloc, 50, 1150},
                                            {0, 30, kFree, 100, 1000}, {0, 40, kAlloc, 10, 1010}}));
  const auto& d = use.devices[0];
  EXPECT_EQ(d.source, InUseSource::recorded_total);
  EXPECT_EQ(values(d), (std::vector<std::int64_t>{1100, 1150, 1000, 1010}));
  EXPECT_EQ(d.baseline_bytes, 1000);
  // 1150 - 100 would be 1050: one event's change disagrees with the record.
  EXPECT_EQ(d.recorded_mismatches, 1);
  EXPECT_EQ(d.peak_bytes, 1150);
  ASSERT_EQ(use.notices.size(), 1u);
}

TEST(MemoryUse, APartlyRecordedTotalFallsBackToTheRunningSum) {
  const auto use = analyze_memory(model_of({{0, 10, kAlloc, 100, 1100}, {0, 20, kAlloc, 50}}));
  EXPECT_EQ(use.devices[0].source, InUseSource::running_sum);
  EXPECT_EQ(values(use.devices[0]), (std::vector<std::int64_t>{100, 150}));
}

TEST(MemoryUse, HostMemoryIsCountedOutsideTheDeviceTimeline) {
  const auto use = analyze_memory(model_of({{0, 10, kAlloc, 40, trace::kUnknown, MemoryKind::pinned},
                                            {0, 12, kAlloc, 40, trace::kUnknown, MemoryKind::device},
                                            {0, 20, kFree, 40, trace::kUnknown, MemoryKind::pinned}}));
  const auto& d = use.devices[0];
  EXPECT_EQ(d.host_allocations, 1);
  EXPECT_EQ(d.host_allocated_bytes, 40);
  EXPECT_EQ(values(d), (std::vector<std::int64_t>{40}));
  EXPECT_EQ(d.allocations, 1);
  EXPECT_EQ(d.frees, 0);
}

TEST(MemoryUse, SizesPastInt64AreANoticeNotAWrap) {
  const auto max = std::numeric_limits<std::int64_t>::max();
  const auto use = analyze_memory(model_of({{0, 1, kAlloc, max}, {0, 2, kAlloc, max}, {1, 1, kAlloc, 8}}));
  ASSERT_EQ(use.devices.size(), 1u);
  EXPECT_EQ(use.devices[0].device, 1);
  ASSERT_EQ(use.notices.size(), 1u);
  EXPECT_NE(use.notices[0].find("GPU 0"), std::string::npos);
}

TEST(MemoryUse, ThinnedTimelineKeepsThePeakAndTheEnd) {
  std::vector<Event> events;
  for (std::int64_t i = 0; i < 1000; ++i) events.push_back({0, i * 10, kAlloc, i == 537 ? 5000 : 1});
  for (std::int64_t i = 0; i < 1000; ++i) events.push_back({0, 10000 + i * 10, kFree, i == 999 ? 5000 : 1});
  const auto model = model_of(events);
  const auto full = analyze_memory(model);
  const auto thin = analyze_memory(model, 50);
  ASSERT_LE(thin.devices[0].timeline.size(), 50u);
  const auto largest = [](const DeviceMemory& d) {
    return std::max_element(d.timeline.begin(), d.timeline.end(),
                            [](const auto& a, const auto& b) { return a.bytes < b.bytes; })->bytes;
  };
  EXPECT_EQ(largest(thin.devices[0]), full.devices[0].peak_bytes);
  EXPECT_EQ(thin.devices[0].peak_bytes, full.devices[0].peak_bytes);
  EXPECT_EQ(thin.devices[0].timeline.back().bytes, 0);
  EXPECT_EQ(full.devices[0].final_bytes, 0);
}

TEST(MemoryUse, NoEventsIsNotRecorded) {
  trace::TraceModel model;
  EXPECT_FALSE(analyze_memory(model).recorded());
  EXPECT_FALSE(analyze_memory(model).table_present);
}

}  // namespace
}  // namespace gpuprof::memory
