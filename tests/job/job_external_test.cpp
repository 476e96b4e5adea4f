#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "gpuprof/idle/idle_cause.hpp"
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
  // The whole world: the all-to-all's SendRecv kernels are matched, and they end within their lengths.
  EXPECT_EQ(job.clocks.method, ClockMethod::collectives);
  for (const auto& notice : job.notices) EXPECT_EQ(notice.find("doubtful"), std::string::npos) << notice;
  EXPECT_EQ(job.stragglers.job.ranks, 8);
  EXPECT_GE(job.stragglers.steps.size(), 8U);
  EXPECT_EQ(job.stragglers.ranks.size(), 8U);
  for (const auto& rank : job.stragglers.ranks) {
    std::printf("rank %d: caused %lld ns, last at %lld of %lld, lateness %.0f ns, work %.0f ns, step %.0f ns%s\n",
                rank.rank, static_cast<long long>(rank.caused_wait_ns), static_cast<long long>(rank.last_arrivals),
                static_cast<long long>(job.stragglers.job.matched_collectives), rank.mean_lateness_ns,
                rank.mean_work_ns, rank.mean_step_ns, rank.straggler ? " straggler" : "");
  }
}

// The idle invariants once partner ranks' lateness is peer_wait (DESIGN.md, "Idle causes"): causes add up
// to the idle time per interval, step and device; coverage never exceeds the time labelled; a peer wait is
// part of its interval. Returns the steady idle inside steps and its peer_wait per rank.
std::vector<std::pair<std::int64_t, std::int64_t>> expect_idle_invariants(const JobAnalysis& job) {
  constexpr auto kPeer = static_cast<std::size_t>(idle::IdleCause::peer_wait);
  std::vector<std::pair<std::int64_t, std::int64_t>> per_rank;
  for (const auto& rank : job.ranks) {
    const auto& analysis = rank.analysis;
    SCOPED_TRACE("rank " + std::to_string(analysis.rank));
    const auto tally_holds = [](const idle::IdleTally& tally, std::int64_t idle_ns) {
      EXPECT_EQ(tally.total_ns(), idle_ns);
      for (std::size_t label = 0; label < idle::kIdleLabels; ++label) {
        EXPECT_GE(tally.covered_ns[label], 0);
        EXPECT_LE(tally.covered_ns[label], tally.label_ns[label]);
      }
      for (const auto ns : tally.cause_ns) EXPECT_GE(ns, 0);
    };
    for (const auto& step : analysis.steps) {
      tally_holds(step.breakdown.idle_in_steps_causes, step.breakdown.idle_in_steps_ns);
      tally_holds(step.breakdown.batch_gap_causes, step.breakdown.batch_gap_ns);
    }
    auto& sums = per_rank.emplace_back();
    for (const auto& device : analysis.devices) {
      tally_holds(device.total.idle_in_steps_causes, device.total.idle_in_steps_ns);
      tally_holds(device.steady.idle_in_steps_causes, device.steady.idle_in_steps_ns);
      sums.first += device.steady.idle_in_steps_ns;
      sums.second += device.steady.idle_in_steps_causes.cause_ns[kPeer];
    }
    for (const auto& interval : analysis.idle_intervals) {
      EXPECT_EQ(idle::total_of(interval.causes), interval.end_ns - interval.start_ns);
    }
    for (const auto& gap : analysis.gaps) EXPECT_EQ(idle::total_of(gap.causes), gap.idle_ns);
  }
  for (const auto& piece : job.peer_waits) {
    EXPECT_GT(piece.peer_wait_ns, 0);
    EXPECT_LE(piece.peer_wait_ns, piece.end_ns - piece.start_ns);
    EXPECT_TRUE(piece.rank != piece.waited_for || piece.device != piece.waited_for_device);
  }
  return per_rank;
}

JobOptions keeping_intervals() {
  JobOptions options;
  options.analysis.keep_idle_intervals = true;
  return options;
}

// Per device, the kept intervals' causes are the tallies' causes: the intervals a user clicks (the app, the
// JSON's rows) show what the tables sum, after the peer waits too.
void expect_intervals_match_tallies(const analysis::RankAnalysis& analysis) {
  for (const auto& device : analysis.devices) {
    SCOPED_TRACE("device " + std::to_string(device.device));
    idle::CauseTimes in_steps{}, in_gaps{};
    for (const auto& interval : analysis.idle_intervals) {
      if (interval.device == device.device) idle::add_times(interval.in_gap ? in_gaps : in_steps, interval.causes);
    }
    EXPECT_EQ(in_steps, device.total.idle_in_steps_causes.cause_ns);
    EXPECT_EQ(in_gaps, device.total.batch_gap_causes.cause_ns);
  }
}

// Every peer copy with a partner joins two devices of the trace, and its partner's work ended by its start;
// copies with no partner are counted, never lost.
void expect_peer_copies_hold(const RankSummary& rank, const std::vector<std::int32_t>& devices,
                             std::int64_t peer_copy_rows) {
  const auto& copies = rank.analysis.peer_copies;
  EXPECT_LE(static_cast<std::int64_t>(copies.copies.size()) + copies.ignored, peer_copy_rows);
  EXPECT_GE(copies.ignored, 0);
  for (const auto& copy : copies.copies) {
    EXPECT_NE(copy.device, copy.partner);
    EXPECT_TRUE(std::binary_search(devices.begin(), devices.end(), copy.partner));
    EXPECT_LE(copy.partner_ready_ns, copy.start_ns);
  }
}

// dlrm-8rank: ranks wait for each other's late all-to-alls and all-reduces; the part of their idle time
// inside steps spent before the last partner arrived is peer_wait.
TEST(JobExternal, DlrmIdleBeforeLatePartnersIsPeerWait) {
  const auto data = gpuprof::testing::external_data_dir();
  if (data.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  const auto job = analyze_job({(data / "dlrm-8rank").string()}, keeping_intervals());
  ASSERT_EQ(job.ranks.size(), 8U);
  const auto per_rank = expect_idle_invariants(job);
  for (const auto& rank : job.ranks) expect_intervals_match_tallies(rank.analysis);
  std::int64_t peer = 0;
  for (std::size_t rank = 0; rank < per_rank.size(); ++rank) {
    const auto [idle_ns, peer_ns] = per_rank[rank];
    std::printf("rank %zu: idle inside steady steps %lld ns, peer_wait %lld ns (%.1f%%)\n", rank,
                static_cast<long long>(idle_ns), static_cast<long long>(peer_ns),
                idle_ns > 0 ? 100.0 * static_cast<double>(peer_ns) / static_cast<double>(idle_ns) : 0.0);
    peer += peer_ns;
  }
  EXPECT_GT(peer, 0);
  EXPECT_FALSE(job.peer_waits.empty());
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
  // 2 ranks of a 128-rank job: their SendRecv kernels (ends a median 21 ms apart) are not one collective, so
  // nobody waits for anybody and the notices say why.
  for (const auto& rank : job.collective_waits) {
    for (const auto wait : rank) EXPECT_EQ(wait, 0);
  }
  EXPECT_TRUE(job.peer_waits.empty());
  EXPECT_NE(job.clocks.method, ClockMethod::collectives);
  const auto said = std::any_of(job.notices.begin(), job.notices.end(), [](const std::string& notice) {
    return notice.find("point-to-point kernels") != std::string::npos && notice.find("2 of 128") != std::string::npos;
  });
  EXPECT_TRUE(said);
  expect_idle_invariants(analyze_job({(data / "hta/sampled_rank-1.json.gz").string(),
                                      (data / "hta/sampled_rank-0.json.gz").string()},
                                     keeping_intervals()));
}

// Each real trace alone, as `gpuprof report` of the one file analyses it (a job of one rank, whose devices
// may wait for each other): every sum holds after the peer waits.
TEST(JobExternal, EveryTraceAloneKeepsItsSumsWithPeerWaits) {
  const auto data = gpuprof::testing::external_data_dir();
  if (data.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  std::vector<std::filesystem::path> traces;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(data)) {
    const auto name = entry.path().filename().string();
    const bool trace = name.ends_with(".json.gz") || name.ends_with(".sqlite") || name.ends_with(".nvvp");
    if (entry.is_regular_file() && trace && entry.path().parent_path().filename() != "malformed") {
      traces.push_back(entry.path());
    }
  }
  std::sort(traces.begin(), traces.end());
  EXPECT_GE(traces.size(), 10U);
  for (const auto& path : traces) {
    SCOPED_TRACE(path.string());
    std::vector<std::int32_t> devices;
    std::int64_t peer_copy_rows = 0;
    auto options = keeping_intervals();
    options.inspect_model = [&](std::int32_t, const trace::TraceModel& model) {
      devices = model.device_ids();
      peer_copy_rows = std::count(model.memcpys.copy_kind.begin(), model.memcpys.copy_kind.end(),
                                  trace::CopyKind::peer_to_peer);
    };
    const auto job = analyze_job({path.string()}, options);
    ASSERT_EQ(job.ranks.size(), 1U);
    expect_idle_invariants(job);
    expect_intervals_match_tallies(job.ranks[0].analysis);
    expect_peer_copies_hold(job.ranks[0], devices, peer_copy_rows);
  }
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
