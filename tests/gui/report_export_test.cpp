// The app's exported report is `gpuprof report`'s for the same traces, format and sections, byte for byte:
// the export asks the analyzer for the analysis options of the document (report_analysis_options), as the
// command does, instead of writing the analyses the app made for its views (no host summaries until their
// dock is shown).

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gpuprof/gui/report_export.hpp"
#include "gui_fixtures.hpp"
#include "job_test_support.hpp"
#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

namespace fs = std::filesystem;
using gpuprof::testing::TemporaryFolder;

std::map<std::string, std::string> folder_files(const fs::path& folder) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    files[entry.path().filename().string()] = gpuprof::testing::read_file(entry.path().string());
  }
  return files;
}

// `gpuprof report TRACES --format FORMAT -o OUTPUT [--sections ...]`.
void run_cli(const std::vector<std::string>& traces, const std::string& format, const std::string& output,
             const std::string& sections) {
  std::vector<std::string> command{GPUPROF_BINARY, "report"};
  command.insert(command.end(), traces.begin(), traces.end());
  command.insert(command.end(), {"--format", format, "-o", output});
  if (!sections.empty()) command.insert(command.end(), {"--sections", sections});
  const auto result = gpuprof::testing::run_process(command);
  ASSERT_EQ(result.exit_code, 0) << result.err;
}

std::vector<report::Section> parsed(const std::string& sections) {
  if (sections.empty()) return report::all_sections();
  std::vector<report::Section> result;
  std::size_t start = 0;
  while (start <= sections.size()) {
    const auto comma = std::min(sections.find(',', start), sections.size());
    result.push_back(report::section_from_string(sections.substr(start, comma - start)));
    start = comma + 1;
  }
  return result;
}

void expect_same_documents(const std::vector<std::string>& traces, const std::string& sections) {
  SCOPED_TRACE("sections: " + (sections.empty() ? std::string("all") : sections));
  TemporaryFolder folder;
  const std::atomic<bool> cancel{false};
  const auto session = load_session(traces, {}, cancel);
  export_report(*session, report::Format::html, folder.file("app.html"), parsed(sections));
  run_cli(traces, "html", folder.file("cli.html"), sections);
  const auto app_html = gpuprof::testing::read_file(folder.file("app.html"));
  EXPECT_EQ(app_html, gpuprof::testing::read_file(folder.file("cli.html")));
  export_report(*session, report::Format::csv, folder.file("app_csv") + "/", parsed(sections));
  run_cli(traces, "csv", folder.file("cli_csv") + "/", sections);
  const auto app_csv = folder_files(folder.path() / "app_csv");
  EXPECT_FALSE(app_csv.empty());
  EXPECT_EQ(app_csv, folder_files(folder.path() / "cli_csv"));
  if (sections.empty()) {
    // The tables the app's own analysis leaves out until their dock is shown are in the document.
    EXPECT_NE(app_html.find("nvtx_sum"), std::string::npos);
    EXPECT_NE(app_html.find("cuda_api_sum"), std::string::npos);
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
