#include <gtest/gtest.h>

#include <cstdlib>
#include <algorithm>
#include <filesystem>

#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "report_fixtures.hpp"
#include "temporary_folder.hpp"

// Golden files live in tests/analyzer/golden/. After an intended change to a
// report, regenerate them with GPUPROF_UPDATE_GOLDEN=1 and review the diff.

namespace gpuprof::report {
namespace {

using testing::golden_input;
using testing::golden_job_input;

void expect_golden(const std::string& name, const std::string& actual) {
  const auto path = std::filesystem::path(GPUPROF_SOURCE_DIR) / "tests/analyzer/golden" / name;
  if (std::getenv("GPUPROF_UPDATE_GOLDEN") != nullptr) {
    gpuprof::testing::write_file(path.string(), actual);
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing; run with GPUPROF_UPDATE_GOLDEN=1";
  EXPECT_EQ(actual, gpuprof::testing::read_file(path.string())) << "differs from " << path;
}

TEST(ReportGolden, Text) { expect_golden("report.txt", render_text(golden_input())); }
TEST(ReportGolden, Markdown) { expect_golden("report.md", render_markdown(golden_input())); }
TEST(ReportGolden, Csv) { expect_golden("report.csv", render_csv(golden_input())); }
TEST(ReportGolden, Json) { expect_golden("report.json", render_json(golden_input())); }
// The kernel table and the launch analysis run on a second thread (issue 19):
// whichever finishes first, every run writes the same bytes as the golden file.
TEST(ReportGolden, JsonIsTheSameOnEveryRun) {
  for (int run = 0; run < 8; ++run) expect_golden("report.json", render_json(golden_input()));
}
TEST(ReportGolden, Html) { expect_golden("report.html", render_html(golden_input())); }

// The full breakdown (--wide) and every gap (--gaps all) in the terminal view.
TEST(ReportGolden, TextWideWithEveryGap) {
  auto input = golden_input();
  input.wide = true;
  input.all_gaps = true;
  expect_golden("report_wide.txt", render_text(input));
}

// The summary of a job: the slowest rank, stragglers and exposed communication besides the step period.
TEST(ReportGolden, JobSummaryText) {
  auto input = golden_job_input();
  input.sections = {Section::summary};
  expect_golden("summary_job.txt", render_text(input));
}
TEST(ReportGolden, JobText) { expect_golden("report_job.txt", render_text(golden_job_input())); }
TEST(ReportGolden, JobMarkdown) { expect_golden("report_job.md", render_markdown(golden_job_input())); }

// JSON lists the longest --max-intervals idle intervals and counts the rest with their idle time, so that
// nothing is dropped silently; without the intervals kept it says so.
TEST(ReportJson, IdleIntervalsAreCutAtTheLimitAndTheRestCounted) {
  auto input = golden_input();
  input.max_intervals = 3;
  std::vector<std::int64_t> lengths;
  for (const auto& rank : input.ranks) {
    for (const auto& interval : rank.idle_intervals) lengths.push_back(interval.end_ns - interval.start_ns);
  }
  ASSERT_GT(lengths.size(), 3U);
  std::sort(lengths.rbegin(), lengths.rend());
  std::int64_t omitted_ns = 0;
  for (std::size_t i = 3; i < lengths.size(); ++i) omitted_ns += lengths[i];
  const auto json = render_json(input);
  EXPECT_NE(json.find("\"kept\": true"), std::string::npos);
  EXPECT_NE(json.find("\"listed\": 3,"), std::string::npos);
  EXPECT_NE(json.find("\"omitted\": " + std::to_string(lengths.size() - 3) + ","), std::string::npos);
  EXPECT_NE(json.find("\"omitted_ns\": " + std::to_string(omitted_ns) + ","), std::string::npos);
  for (auto& rank : input.ranks) rank.idle_intervals.clear();
  EXPECT_NE(render_json(input).find("\"kept\": false"), std::string::npos);
}

TEST(ReportEscaping, UntrustedNamesNeverReachMarkupOrFormulas) {
  auto input = golden_input();
  input.full_names = true;  // short names drop most of a hostile name; the whole one must be safe too
  const auto html = render_html(input);
  // The only script is the document's own table script, at the end.
  const auto own_script = html.find(html_script());
  ASSERT_NE(own_script, std::string::npos);
  EXPECT_EQ(html.find("<script"), own_script);
  EXPECT_EQ(html.find("<script", own_script + 1), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"), std::string::npos);
  const auto csv = render_csv(input);
  EXPECT_NE(csv.find("\"'=HYPERLINK(\"\"http://x\"\"),a|b\""), std::string::npos);
  EXPECT_EQ(csv.find(",=HYPERLINK"), std::string::npos);
  const auto markdown = render_markdown(input);
  EXPECT_NE(markdown.find("a\\|b"), std::string::npos);
  EXPECT_EQ(markdown.find("<script>"), std::string::npos);
}

TEST(ReportWriters, CsvFolderGetsOneFilePerTable) {
  gpuprof::testing::TemporaryFolder folder;
  const auto output = folder.file("out") + "/";
  write_report(Format::csv, golden_input(), output);
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(output)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"api_calls.csv", "categories.csv", "collectives.csv", "comm_rules.csv",
                                             "devices.csv", "gap_summary.csv", "gaps.csv", "idle_causes.csv",
                                             "idle_intervals.csv", "idle_steps.csv", "kernels.csv", "launch_latency.csv",
                                             "launch_queues.csv", "launches.csv", "memory.csv", "nvtx_ranges.csv",
                                             "steady_state.csv", "steps.csv", "transfer_flags.csv",
                                             "transfer_kinds.csv", "transfer_matrix.csv", "transfers.csv"}));
  const auto devices = gpuprof::testing::read_file(output + "devices.csv");
  EXPECT_EQ(devices.substr(0, devices.find('\n')),
            "Rank,Device,Windows,Steps,Window,Computation,Comm,Exposed comm,Memcpy,Exposed memcpy,Busy,Idle,"
            "Idle in steps,Batch gaps,Idle%,Comm hidden%,Memcpy hidden%");
}

TEST(ReportWriters, SectionsLimitTheOutput) {
  auto input = golden_input();
  input.sections = {Section::gaps};
  const auto text = render_text(input);
  EXPECT_NE(text.find("Batch gaps"), std::string::npos);
  EXPECT_EQ(text.find("Kernel summary"), std::string::npos);
  const auto json = render_json(input);
  EXPECT_NE(json.find("\"kernels\": []"), std::string::npos);
  EXPECT_THROW(section_from_string("everything"), TraceError);
  EXPECT_THROW(format_from_string("pdf"), TraceError);
}

}  // namespace
}  // namespace gpuprof::report
