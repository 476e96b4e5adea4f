// The app's exported report is `gpuprof report`'s for the same traces, format and sections, byte for byte:
// the export asks the analyzer for the analysis options of the document (report_analysis_options), as the
// command does, instead of writing the analyses the app made for its views (no host summaries until their
// dock is shown).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "export_comparison.hpp"
#include "gui_fixtures.hpp"
#include "job_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

using gpuprof::testing::TemporaryFolder;

void expect_same_documents(const std::vector<std::string>& traces, const std::string& sections) {
  const auto html = testing::expect_export_equals_report(GPUPROF_BINARY, traces, sections);
  if (sections.empty()) {
    // The tables the app's own analysis leaves out until their dock is shown are in the document.
    EXPECT_NE(html.find("nvtx_sum"), std::string::npos);
    EXPECT_NE(html.find("cuda_api_sum"), std::string::npos);
  }
}

TEST(ReportExport, EqualsGpuprofReportOfTheSameTraceAndSections) {
  TemporaryFolder folder;
  const auto path = folder.file("dp.sqlite");
  testing::write_trace(path, 2, 6);
  for (const std::string sections : {"", "summary,nvtx,api,launches", "devices,gaps,memory"}) {
    expect_same_documents({path}, sections);
  }
}

TEST(ReportExport, EqualsGpuprofReportOfTheSameJob) {
  TemporaryFolder folder;
  synthetic::SynthOptions options;
  options.devices = 1;
  options.steps = 5;
  options.kernels_per_step = 4;
  std::vector<std::string> traces;
  for (int rank = 0; rank < 2; ++rank) {
    traces.push_back(folder.file("rank" + std::to_string(rank) + ".sqlite"));
    gpuprof::testing::write_rank(traces.back(), rank, 2, options);
  }
  expect_same_documents(traces, "");
}

}  // namespace
}  // namespace gpuprof::gui
