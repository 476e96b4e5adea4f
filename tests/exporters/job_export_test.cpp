// A job's ranks exported into one Chrome trace: one process per rank and GPU on
// the reference rank's clock, collective arrows across ranks, and a file that
// reads back to the job's report. Synthetic ranks, one of them on a shifted clock.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "export_test_support.hpp"
#include "gpuprof/exporters/chrome_trace_exporter.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "job_export_checks.hpp"
#include "job_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

using testing::TemporaryFolder;

constexpr std::int64_t kShiftNs = 7'000'000'000;

class JobExport : public ::testing::Test {
 protected:
  void SetUp() override {
    synthetic::SynthOptions options;
    options.devices = 2;
    options.steps = 4;
    std::filesystem::create_directories(folder_.file("job"));
    for (std::int32_t rank = 0; rank < 3; ++rank) {
      options.seed = static_cast<std::uint64_t>(rank) + 1;
      testing::write_rank(job_file(rank), rank, 3, options);
    }
    // Rank 1 on its own clock and without calibration pairs: collectives align it.
    testing::shift_times(job_file(1), kShiftNs);
    for (std::int32_t rank = 0; rank < 3; ++rank) {
      testing::execute_sql(job_file(rank), "DELETE FROM meta WHERE key = 'clock_calibration';");
    }
  }
  std::string job_file(std::int32_t rank) const { return folder_.file("job/rank" + std::to_string(rank) + ".sqlite"); }

  exporters::ChromeTraceSummary export_job(const std::string& name) {
    return exporters::export_chrome_trace({{folder_.file("job")}, folder_.file(name), false});
  }

  TemporaryFolder folder_;
};

TEST_F(JobExport, WritesOneValidFileWithEveryRankOnTheReferenceClock) {
  const auto summary = export_job("job.json.gz");
  EXPECT_EQ(summary.ranks, 3);
  EXPECT_EQ(summary.clock_method, "matched collectives");
  const auto job = job::analyze_job({folder_.file("job")}, {});
  ASSERT_EQ(job.clocks.method, job::ClockMethod::collectives);
  EXPECT_NEAR(static_cast<double>(job.clocks.offset_of(1)), static_cast<double>(-kShiftNs), 1e6);
  const auto document = testing::parse_json(folder_.file("job.json.gz"));
  const auto shape = testing::check_merged_trace(document, job);
  EXPECT_GT(shape.launch_arrows, 0U);
  // Every all-reduce of the synthetic steps is on all three ranks.
  EXPECT_GT(shape.collective_chains, 0U);
  EXPECT_EQ(summary.collective_arrows, static_cast<std::int64_t>(shape.collective_chains) * (3 * 2 - 1));
  EXPECT_EQ(document["deviceProperties"].Size(), 6U);
}

TEST_F(JobExport, ReadsBackToTheJobsReport) {
  export_job("job.json");
  const auto job = job::analyze_job({folder_.file("job")}, {});
  testing::expect_same_report(job, folder_.file("job.json"), folder_.file("job.sqlite"));
}

TEST_F(JobExport, KeepsTheRanksLaunchesApart) {
  export_job("job.json");
  const auto document = testing::parse_json(folder_.file("job.json"));
  // Each rank numbers its launches from 1; in one file rank r's become r·10^k + id.
  std::set<std::int64_t> correlations;
  std::size_t launches = 0;
  for (const auto& event : document["traceEvents"].GetArray()) {
    if (std::string(event["ph"].GetString()) != "X" || std::string(event["cat"].GetString()) != "cuda_runtime") {
      continue;
    }
    if (!event["args"].HasMember("correlation")) continue;
    ++launches;
    correlations.insert(event["args"]["correlation"].GetInt64());
  }
  EXPECT_GT(launches, 0U);
  EXPECT_EQ(correlations.size(), launches);
}

TEST_F(JobExport, RefusesFilesOfDifferentJobsNamingTheFile) {
  testing::write_rank(folder_.file("job/other.sqlite"), 3, 8);
  try {
    export_job("job.json");
    FAIL() << "exported files of two jobs";
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
    EXPECT_NE(std::string(error.what()).find("other.sqlite"), std::string::npos) << error.what();
  }
  EXPECT_FALSE(std::filesystem::exists(folder_.file("job.json")));
}

}  // namespace
}  // namespace gpuprof
