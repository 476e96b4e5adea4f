#pragma once

// The app's exported report against `gpuprof report` of the same traces and sections, byte for byte: shared by
// the synthetic tests (report_export_test) and the real traces' (real_traces_test, label external).

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gpuprof/gui/report_export.hpp"
#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui::testing {

inline std::map<std::string, std::string> folder_files(const std::filesystem::path& folder) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    files[entry.path().filename().string()] = gpuprof::testing::read_file(entry.path().string());
  }
  return files;
}

// `gpuprof report TRACES --format FORMAT -o OUTPUT [--sections ...]`.
inline void run_report(const std::string& binary, const std::vector<std::string>& traces, const std::string& format,
                       const std::string& output, const std::string& sections) {
  std::vector<std::string> command{binary, "report"};
  command.insert(command.end(), traces.begin(), traces.end());
  command.insert(command.end(), {"--format", format, "-o", output});
  if (!sections.empty()) command.insert(command.end(), {"--sections", sections});
  const auto result = gpuprof::testing::run_process(command);
  ASSERT_EQ(result.exit_code, 0) << result.err;
}

inline std::vector<report::Section> parsed_sections(const std::string& sections) {
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

// The app's HTML and CSV export of `traces` (a session loaded as the app loads it) against `gpuprof report`
// (`binary`) of the same traces and sections ("" for all), byte for byte. Returns the app's HTML.
inline std::string expect_export_equals_report(const std::string& binary, const std::vector<std::string>& traces,
                                        const std::string& sections) {
  SCOPED_TRACE("sections: " + (sections.empty() ? std::string("all") : sections));
  gpuprof::testing::TemporaryFolder folder;
  const std::atomic<bool> cancel{false};
  const auto session = load_session(traces, {}, cancel);
  export_report(*session, report::Format::html, folder.file("app.html"), parsed_sections(sections));
  run_report(binary, traces, "html", folder.file("cli.html"), sections);
  const auto app_html = gpuprof::testing::read_file(folder.file("app.html"));
  EXPECT_EQ(app_html, gpuprof::testing::read_file(folder.file("cli.html")));
  export_report(*session, report::Format::csv, folder.file("app_csv") + "/", parsed_sections(sections));
  run_report(binary, traces, "csv", folder.file("cli_csv") + "/", sections);
  const auto app_csv = folder_files(folder.path() / "app_csv");
  EXPECT_FALSE(app_csv.empty());
  EXPECT_EQ(app_csv, folder_files(folder.path() / "cli_csv"));
  return app_html;
}

}  // namespace gpuprof::gui::testing
