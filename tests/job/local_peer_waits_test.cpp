#include <gtest/gtest.h>

#include <algorithm>

#include "gpuprof/idle/idle_cause.hpp"
#include "gpuprof/idle/peer_copy_partners.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "model_builder.hpp"

// peer_wait between the devices of one process (DESIGN.md, "Idle causes"; docs/report.md): a collective whose
// matched collective on another device of the same trace started later, and a peer copy whose other device
// was still busy, exact to the nanosecond, in a job of one trace as `gpuprof report` of one file makes it.

namespace gpuprof::job {
namespace {

using gpuprof::testing::ModelBuilder;
using idle::IdleCause;

constexpr std::size_t at(IdleCause cause) { return static_cast<std::size_t>(cause); }
constexpr const char* kAllReduce = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

idle::CauseTimes times(std::initializer_list<std::pair<IdleCause, std::int64_t>> entries) {
  idle::CauseTimes result{};
  for (const auto& [cause, ns] : entries) result[at(cause)] = ns;
  return result;
}

analysis::AnalysisOptions keeping_intervals() {
  analysis::AnalysisOptions options;
  options.warmup_steps = 0;
  options.keep_idle_intervals = true;
  return options;
}

// One step [0, 1600) on thread 1. On device `device` (stream 7 + device): a kernel [100, 200), then the
// all-reduce from `collective_start` to 1500 (NCCL kernels of one collective end together), launched at
// `launch`; thread 1's only recorded activity is its launch calls.
void add_device(ModelBuilder& builder, std::int32_t device, std::int64_t collective_start, std::int64_t launch) {
  const std::int64_t correlation = 10 * (device + 1);
  builder.api_call(1, 10 + device, 11 + device, correlation).kernel(device, 7 + device, 100, 200, "k1", correlation);
  builder.api_call(1, launch, launch + 10, correlation + 1)
      .kernel(device, 7 + device, collective_start, 1500, kAllReduce, correlation + 1);
}

JobAnalysis job_of_one(ModelBuilder& builder) {
  builder.range(1, 0, 1600, "ProfilerStep#1");
  std::vector<RankSummary> ranks;
  ranks.push_back(summarize_rank(builder.build(), keeping_intervals(), 0));
  return assemble_job(std::move(ranks));
}

const idle::IdleInterval& only_interval(const analysis::RankAnalysis& analysis, std::int32_t device) {
  const auto count = std::count_if(analysis.idle_intervals.begin(), analysis.idle_intervals.end(),
                                   [device](const idle::IdleInterval& interval) { return interval.device == device; });
  EXPECT_EQ(count, 1) << "device " << device;
  return *std::find_if(analysis.idle_intervals.begin(), analysis.idle_intervals.end(),
                       [device](const idle::IdleInterval& interval) { return interval.device == device; });
}

// The interval's causes are those of its step, its device's totals (steady too) and its window sample.
void expect_sums_follow(const RankSummary& rank, std::int32_t device, const idle::CauseTimes& expected) {
  const auto& analysis = rank.analysis;
  EXPECT_EQ(only_interval(analysis, device).causes, expected) << "device " << device;
  for (const auto& step : analysis.steps) {
    if (step.step.device == device) {
      EXPECT_EQ(step.breakdown.idle_in_steps_causes.cause_ns, expected) << device;
    }
  }
  for (const auto& entry : analysis.devices) {
    if (entry.device != device) continue;
    EXPECT_EQ(entry.total.idle_in_steps_causes.cause_ns, expected) << device;
    EXPECT_EQ(entry.steady.idle_in_steps_causes.cause_ns, expected) << device;
    EXPECT_EQ(entry.total.idle_in_steps_causes.total_ns(), entry.total.idle_in_steps_ns) << device;
  }
  for (const auto& window : rank.windows) {
    if (window.device == device) {
      EXPECT_EQ(window.breakdown.idle_in_steps_causes.cause_ns, expected) << device;
    }
  }
}

// Device 1 starts its all-reduce 300 ns after device 0 (800 vs 500), both of one process.
//   device 0 idles [200, 500): device 1 had not arrived during any of it -> peer_wait 300 (was unrecorded 300).
//   device 1 idles [200, 800): device 0 arrived at 500 -> peer_wait 300; then its own delay: unrecorded
//   [500, 700) 200 and the launch at 700 -> launch_latency 100 (was unrecorded 500, launch_latency 100).
TEST(LocalPeerWaits, CollectiveOfALateDeviceOfTheSameProcessIsPeerWait) {
  ModelBuilder builder;
  add_device(builder, 0, 500, 30);
  add_device(builder, 1, 800, 700);
  const auto job = job_of_one(builder);
  ASSERT_EQ(job.ranks.size(), 1U);
  const auto& rank = job.ranks[0];
  expect_sums_follow(rank, 0, times({{IdleCause::peer_wait, 300}}));
  expect_sums_follow(rank, 1, times({{IdleCause::peer_wait, 300}, {IdleCause::unrecorded, 200},
                                     {IdleCause::launch_latency, 100}}));
  ASSERT_EQ(job.peer_waits.size(), 2U);
  EXPECT_EQ(job.peer_waits[0].device, 0);
  EXPECT_EQ(job.peer_waits[0].waited_for, 0);
  EXPECT_EQ(job.peer_waits[0].waited_for_device, 1);
  EXPECT_EQ(job.peer_waits[0].peer_wait_ns, 300);
  EXPECT_EQ(job.peer_waits[1].device, 1);
  EXPECT_EQ(job.peer_waits[1].waited_for_device, 0);
  EXPECT_EQ(job.peer_waits[1].peer_wait_ns, 300);
}

// Device 1's all-reduce starts at 180, before device 0's idle time begins: nothing to wait for.
TEST(LocalPeerWaits, DeviceThatIsNotLateLeavesTheCausesAlone) {
  ModelBuilder builder;
  add_device(builder, 0, 500, 30);
  add_device(builder, 1, 180, 40);
  const auto job = job_of_one(builder);
  expect_sums_follow(job.ranks[0], 0, times({{IdleCause::unrecorded, 300}}));
  EXPECT_TRUE(job.peer_waits.empty());
}

// Rank 0 drives devices 0 and 1, rank 1 device 0; one clock (the all-reduces end together at 1500).
// All-reduces start at 900 (rank 0, device 0; launched at 850), 800 (rank 0, device 1; at 750) and 700
// (rank 1; at 650). Every run starts at 200 and the latest partner counts, once:
//   rank 0 device 0: its own device 1 (800) arrives after rank 1 (700): peer_wait 600, unrecorded
//     [800, 850) 50, launch_latency 50 (rank 1 alone would give peer_wait 500).
//   rank 0 device 1: rank 0 device 0 (900) is later than its launch: peer_wait 600, the whole run.
//   rank 1: rank 0 device 0 (900): peer_wait 500, the whole run.
TEST(LocalPeerWaits, LatestArrivalAmongDevicesAndRanksWinsOnce) {
  const auto rank_of = [](std::int32_t rank, std::vector<std::pair<std::int64_t, std::int64_t>> devices) {
    ModelBuilder builder;
    builder.meta("rank", std::to_string(rank));
    builder.range(1, 0, 1600, "ProfilerStep#1");
    for (std::size_t device = 0; device < devices.size(); ++device) {
      add_device(builder, static_cast<std::int32_t>(device), devices[device].first, devices[device].second);
    }
    return summarize_rank(builder.build(), keeping_intervals(), rank);
  };
  std::vector<RankSummary> ranks;
  ranks.push_back(rank_of(0, {{900, 850}, {800, 750}}));
  ranks.push_back(rank_of(1, {{700, 650}}));
  const auto job = assemble_job(std::move(ranks));
  for (const auto& offset : job.clocks.offsets) EXPECT_EQ(offset.offset_ns, 0) << offset.rank;
  expect_sums_follow(job.ranks[0], 0, times({{IdleCause::peer_wait, 600}, {IdleCause::unrecorded, 50},
                                             {IdleCause::launch_latency, 50}}));
  expect_sums_follow(job.ranks[0], 1, times({{IdleCause::peer_wait, 600}}));
  expect_sums_follow(job.ranks[1], 0, times({{IdleCause::peer_wait, 500}}));
  ASSERT_EQ(job.peer_waits.size(), 3U);
  EXPECT_EQ(job.peer_waits[0].waited_for, 0);
  EXPECT_EQ(job.peer_waits[0].waited_for_device, 1);
  EXPECT_EQ(job.peer_waits[2].rank, 1);
  EXPECT_EQ(job.peer_waits[2].waited_for, 0);
  EXPECT_EQ(job.peer_waits[2].waited_for_device, 0);
}

// Device 0 runs a kernel [100, 200), then a peer copy to device 1 [800, 900) launched at 750; device 1 runs
// a kernel from 100 to `partner_end`. With partner_end 600 the copy waited for device 1 until 600:
// peer_wait [200, 600) 400, unrecorded [600, 750) 150, launch_latency 50 (was unrecorded 550).
ModelBuilder peer_copy_trace(std::int64_t partner_end, std::int32_t src, std::int32_t dst) {
  ModelBuilder builder;
  builder.api_call(1, 10, 11, 1).kernel(0, 7, 100, 200, "k1", 1);
  builder.api_call(1, 20, 21, 2).kernel(1, 8, 100, partner_end, "k2", 2);
  builder.api_call(1, 750, 760, 3, "cudaMemcpyPeerAsync");
  builder.memcpy(0, 9, 800, 900, trace::CopyKind::peer_to_peer, 1 << 20, src, dst, trace::MemoryKind::device, 3);
  return builder;
}

TEST(LocalPeerWaits, PeerCopyWaitingForItsBusyPartnerIsPeerWait) {
  auto builder = peer_copy_trace(600, 0, 1);
  const auto job = job_of_one(builder);
  expect_sums_follow(job.ranks[0], 0, times({{IdleCause::peer_wait, 400}, {IdleCause::unrecorded, 150},
                                             {IdleCause::launch_latency, 50}}));
  ASSERT_EQ(job.peer_waits.size(), 1U);
  EXPECT_EQ(job.peer_waits[0].waited_for_device, 1);
  EXPECT_EQ(job.peer_waits[0].peer_wait_ns, 400);
  EXPECT_EQ(job.ranks[0].analysis.peer_copies.ignored, 0);
  // The copy into device 0 from device 1 waits alike: the partner is the copy's other end.
  auto reversed = peer_copy_trace(600, 1, 0);
  EXPECT_EQ(only_interval(job_of_one(reversed).ranks[0].analysis, 0).causes,
            times({{IdleCause::peer_wait, 400}, {IdleCause::unrecorded, 150}, {IdleCause::launch_latency, 50}}));
}

// Device 1's work ended at 150, before device 0 went idle: the copy waited for nobody.
TEST(LocalPeerWaits, PeerCopyWhosePartnerWasDoneLeavesTheCausesAlone) {
  auto builder = peer_copy_trace(150, 0, 1);
  const auto job = job_of_one(builder);
  EXPECT_EQ(only_interval(job.ranks[0].analysis, 0).causes,
            times({{IdleCause::unrecorded, 550}, {IdleCause::launch_latency, 50}}));
  EXPECT_TRUE(job.peer_waits.empty());
}

// The partner is ready at its latest end at or before the copy, over every stream of it: one stream's ends
// out of order (a kernel that outlasts the next), and a device with more streams than are searched one by one.
TEST(LocalPeerWaits, PartnerIsReadyAtItsLatestEndBeforeTheCopyOverEveryStream) {
  for (const int streams : {3, 70}) {
    ModelBuilder builder;
    builder.kernel(0, 7, 100, 200, "k1");
    for (int stream = 0; stream < streams; ++stream) builder.kernel(1, 100 + stream, 10 + stream, 20 + stream, "k2");
    builder.kernel(1, 100, 30, 700, "outlasting").kernel(1, 100, 40, 650, "inside");  // stream 100 ends 700, 650
    builder.kernel(1, 101, 600, 640, "second latest");
    builder.memcpy(0, 9, 680, 900, trace::CopyKind::peer_to_peer, 1 << 20, 0, 1, trace::MemoryKind::device);
    const auto partners = idle::find_peer_copy_partners(builder.build());
    ASSERT_EQ(partners.copies.size(), 1U) << streams;
    EXPECT_EQ(partners.copies[0].partner, 1);
    EXPECT_EQ(partners.copies[0].partner_ready_ns, 650) << streams;
  }
}

// Peer copies naming a device the trace does not have, the same device at both ends, or two ends neither of
// which is the copy's own device: counted, named in a notice, and no partner is looked up.
TEST(LocalPeerWaits, PeerCopiesNamingNoSecondDeviceAreCountedAndIgnored) {
  for (const auto& [src, dst] : std::vector<std::pair<std::int32_t, std::int32_t>>{
           {0, 7}, {0, 0}, {trace::kUnknown32, trace::kUnknown32}, {-5, 1 << 30}, {1, 1}}) {
    auto builder = peer_copy_trace(600, src, dst);
    const auto job = job_of_one(builder);
    const auto& analysis = job.ranks[0].analysis;
    EXPECT_EQ(analysis.peer_copies.ignored, 1) << src << " " << dst;
    EXPECT_TRUE(analysis.peer_copies.copies.empty());
    EXPECT_EQ(only_interval(analysis, 0).causes,
              times({{IdleCause::unrecorded, 550}, {IdleCause::launch_latency, 50}}));
    EXPECT_TRUE(job.peer_waits.empty());
    EXPECT_TRUE(std::any_of(analysis.notices.begin(), analysis.notices.end(), [](const std::string& notice) {
      return notice.find("1 peer-to-peer copy names no second device") != std::string::npos;
    })) << src << " " << dst;
  }
}

}  // namespace
}  // namespace gpuprof::job
