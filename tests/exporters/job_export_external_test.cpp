// The merged Chrome trace of the 8 DLRM ranks in ../shared/data/external: it
// validates as Perfetto reads it and re-imports to the job's report. Skips
// without the folder.

#include <gtest/gtest.h>

#include "export_test_support.hpp"
#include "gpuprof/exporters/chrome_trace_exporter.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "job_export_checks.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

TEST(JobExportExternal, DlrmEightRanksMergeIntoOneValidFileThatReadsBack) {
  const auto data = testing::external_data_dir();
  if (data.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  const std::string inputs = (data / "dlrm-8rank").string();
  testing::TemporaryFolder folder;
  const auto summary = exporters::export_chrome_trace({{inputs}, folder.file("dlrm.json.gz"), false});
  EXPECT_EQ(summary.ranks, 8);
  const auto job = job::analyze_job({inputs}, {});
  const auto document = testing::parse_json(folder.file("dlrm.json.gz"));
  const auto shape = testing::check_merged_trace(document, job);
  EXPECT_GT(shape.launch_arrows, 0U);
  EXPECT_GT(shape.collective_chains, 0U);
  EXPECT_EQ(summary.collective_arrows > 0, true);
  // Kineto's operators stay operators.
  std::size_t operators = 0;
  for (const auto& event : document["traceEvents"].GetArray()) {
    operators += event.HasMember("cat") && std::string(event["cat"].GetString()) == "cpu_op";
  }
  EXPECT_GT(operators, 0U);
  testing::expect_same_report(job, folder.file("dlrm.json.gz"), folder.file("dlrm.sqlite"));
}

}  // namespace
}  // namespace gpuprof
