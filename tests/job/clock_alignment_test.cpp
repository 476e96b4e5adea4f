#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "job_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::job {
namespace {

namespace fs = std::filesystem;
using gpuprof::testing::TemporaryFolder;

constexpr std::int64_t kShiftNs = 12'345'678;

synthetic::SynthOptions two_devices() {
  synthetic::SynthOptions options;
  options.devices = 2;
  options.steps = 6;
  return options;
}

// The trace clock value of the synthetic calibration pair [[T, T]].
std::int64_t calibration_time(const std::string& path) {
  trace::TraceFile file(path);
  const auto text = file.meta_value("clock_calibration").value();
  return std::stoll(text.substr(2));
}

TEST(ClockAlignment, SingleRankNeedsNoOffset) {
  TemporaryFolder folder;
  const auto job = analyze_job({gpuprof::testing::write_rank(folder.file("r0.sqlite"), 0, 1, two_devices())}, {});
  ASSERT_EQ(job.clocks.offsets.size(), 1U);
  EXPECT_EQ(job.clocks.method, ClockMethod::single_rank);
  EXPECT_EQ(job.clocks.offsets[0].offset_ns, 0);
}

TEST(ClockAlignment, CalibrationPairsRecoverShift) {
  TemporaryFolder folder;
  const auto rank0 = gpuprof::testing::write_rank(folder.file("r0.sqlite"), 0, 2, two_devices());
  const auto rank1 = gpuprof::testing::write_rank(folder.file("r1.sqlite"), 1, 2, two_devices());
  const auto realtime = calibration_time(rank1);
  gpuprof::testing::shift_times(rank1, kShiftNs);
  // Rank 1's trace clock reads kShiftNs more than rank 0's at the same real time.
  gpuprof::testing::execute_sql(rank1, "UPDATE meta SET value = '[[" + std::to_string(realtime + kShiftNs) + "," +
                                           std::to_string(realtime) + "]]' WHERE key = 'clock_calibration';");
  const auto job = analyze_job({rank1, rank0}, {});
  EXPECT_EQ(job.clocks.method, ClockMethod::calibration);
  ASSERT_EQ(job.ranks.size(), 2U);
  EXPECT_EQ(job.ranks[0].analysis.rank, 0);
  EXPECT_EQ(job.clocks.offset_of(0), 0);
  EXPECT_EQ(job.clocks.offset_of(1), -kShiftNs);
}

TEST(ClockAlignment, MatchedCollectivesRecoverShiftWithoutCalibration) {
  TemporaryFolder folder;
  const auto rank0 = gpuprof::testing::write_rank(folder.file("r0.sqlite"), 0, 2, two_devices());
  // A copy of rank 0 is a rank whose collectives end exactly when rank 0's do.
  const auto rank1 = folder.file("r1.sqlite");
  fs::copy_file(rank0, rank1);
  gpuprof::testing::set_rank(rank1, 1);
  gpuprof::testing::shift_times(rank1, kShiftNs);
  // Kernels end up to 2 us apart across ranks, as real collectives do.
  gpuprof::testing::execute_sql(rank1, "UPDATE kernels SET end_ns = end_ns + (rowid % 3) * 1000; DELETE FROM event_chunks;"
                                       "DELETE FROM meta WHERE key = 'clock_calibration';");
  const auto job = analyze_job({rank0, rank1}, {});
  EXPECT_EQ(job.clocks.method, ClockMethod::collectives);
  const auto& offset = job.clocks.offsets.at(1);
  EXPECT_EQ(offset.method, ClockMethod::collectives);
  EXPECT_GT(offset.matched, 0);
  EXPECT_LE(std::llabs(offset.offset_ns + kShiftNs), 3'000);
  EXPECT_FALSE(job.notices.empty());  // says why calibration was not used
}

// Without calibration and without collectives, only rank 1 lacks a match: the reference
// rank is never said to share nothing with itself.
TEST(ClockAlignment, RanksWithoutCollectivesNameOnlyTheOtherRanks) {
  TemporaryFolder folder;
  std::vector<std::string> ranks;
  for (std::int32_t rank = 0; rank < 2; ++rank) {
    ranks.push_back(gpuprof::testing::write_rank(folder.file("r" + std::to_string(rank) + ".sqlite"), rank, 2,
                                                 two_devices()));
    gpuprof::testing::execute_sql(ranks.back(),
                                  "DELETE FROM kernels WHERE name_id IN (SELECT id FROM strings WHERE value LIKE "
                                  "'nccl%');DELETE FROM meta WHERE key = 'clock_calibration';");
  }
  const auto job = analyze_job(ranks, {});
  EXPECT_EQ(job.clocks.method, ClockMethod::none);
  std::vector<std::string> unmatched;
  for (const auto& notice : job.notices) {
    if (notice.find("shares no collective") != std::string::npos) unmatched.push_back(notice);
  }
  ASSERT_EQ(unmatched.size(), 1U);
  EXPECT_NE(unmatched[0].find("rank 1 shares no collective with rank 0"), std::string::npos) << unmatched[0];
}

TEST(ClockAlignment, InconsistentCalibrationFallsBackToCollectives) {
  TemporaryFolder folder;
  const auto rank0 = gpuprof::testing::write_rank(folder.file("r0.sqlite"), 0, 2, two_devices());
  const auto rank1 = folder.file("r1.sqlite");
  fs::copy_file(rank0, rank1);
  gpuprof::testing::set_rank(rank1, 1);
  gpuprof::testing::shift_times(rank1, kShiftNs);
  // Start and end pairs that disagree by a second cannot both be right.
  gpuprof::testing::execute_sql(rank1, "UPDATE meta SET value = '[[0,0],[1000000000,2000000000]]' "
                                       "WHERE key = 'clock_calibration';");
  const auto job = analyze_job({rank0, rank1}, {});
  EXPECT_EQ(job.clocks.method, ClockMethod::collectives);
  EXPECT_LE(std::llabs(job.clocks.offset_of(1) + kShiftNs), 3'000);
}

TEST(ClockAlignment, AlignedCollectivesMeanNoWaitForIdenticalRanks) {
  TemporaryFolder folder;
  const auto rank0 = gpuprof::testing::write_rank(folder.file("r0.sqlite"), 0, 2, two_devices());
  const auto rank1 = folder.file("r1.sqlite");
  fs::copy_file(rank0, rank1);
  gpuprof::testing::set_rank(rank1, 1);
  gpuprof::testing::shift_times(rank1, kShiftNs);
  gpuprof::testing::execute_sql(rank1, "DELETE FROM meta WHERE key = 'clock_calibration';");
  const auto job = analyze_job({rank0, rank1}, {});
  EXPECT_EQ(job.clocks.offset_of(1), -kShiftNs);
  // Same timeline once aligned: no rank starts late, waits match rank by rank.
  for (const auto& step : job.stragglers.steps) EXPECT_EQ(step.lateness_ns, 0) << "step " << step.step;
  EXPECT_EQ(job.collective_waits[0], job.collective_waits[1]);
  EXPECT_TRUE(job.stragglers.job.stragglers.empty());
}

}  // namespace
}  // namespace gpuprof::job
