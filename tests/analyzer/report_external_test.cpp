#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "report_first_screen.hpp"
#include "report_width.hpp"
#include "temporary_folder.hpp"

// The default text report of every real trace under ../shared/data/external (one report per file, and the
// multi-rank jobs as jobs) opens with the summary and fits 120 columns, and no report shows a mangled name.
// Skips without the folder.

namespace gpuprof::report {
namespace {

namespace fs = std::filesystem;

bool is_trace(const fs::path& path) {
  const auto name = path.filename().string();
  return name.ends_with(".json.gz") || name.ends_with(".sqlite") || name.ends_with(".nvvp");
}

// An Itanium-mangled name (`_Z` then a length or a nested name) anywhere in a report: DESIGN.md, "Kernel
// names", says a report never shows one.
std::string mangled_name_in(const std::string& text) {
  static const std::regex mangled(R"((^|[^A-Za-z0-9_])_Z[0-9N])");
  std::smatch match;
  if (!std::regex_search(text, match, mangled)) return {};
  return text.substr(static_cast<std::size_t>(match.position(0)), 80);
}

// Renders the default text report of `inputs`; false when gpuprof refuses them as bad input.
bool expect_fits(const std::vector<std::string>& inputs, const std::string& what) {
  ReportInput input;
  try {
    input = report_input(job::analyze_job(inputs, {}));
  } catch (const TraceError& error) {
    if (error.kind() != TraceError::Kind::bad_input) throw;
    return false;  // a malformed or CPU-only trace: refused with one line, as `gpuprof report` would
  }
  for (const bool full_names : {false, true}) {
    input.full_names = full_names;
    const auto text = render_text(input);
    const auto wide = gpuprof::testing::first_line_wider_than(text, kTerminalWidth);
    EXPECT_TRUE(wide.empty()) << what << (full_names ? " (--full-names)" : "") << ": " << wide;
    EXPECT_NE(text.find("\nSummary"), std::string::npos) << what;
    EXPECT_LT(text.find("\nSummary"), text.find("Time breakdown per device")) << what;
    EXPECT_EQ(mangled_name_in(text), "") << what << (full_names ? " (--full-names)" : "");
  }
  EXPECT_EQ(mangled_name_in(render_json(input)), "") << what << " (JSON)";
  EXPECT_EQ(mangled_name_in(render_csv(input)), "") << what << " (CSV)";
  return true;
}

TEST(ReportExternal, EveryRealTraceFits120Columns) {
  const auto data = gpuprof::testing::external_data_dir();
  if (data.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  std::vector<fs::path> traces;
  for (const auto& entry : fs::recursive_directory_iterator(data)) {
    if (entry.is_regular_file() && is_trace(entry.path())) traces.push_back(entry.path());
  }
  std::sort(traces.begin(), traces.end());
  std::size_t rendered = 0;
  for (const auto& trace : traces) {
    if (expect_fits({trace.string()}, fs::relative(trace, data).string())) ++rendered;
  }
  // Only the malformed HTA samples (hta/malformed/) may be refused.
  EXPECT_GE(rendered + 3, traces.size()) << rendered << " of " << traces.size() << " rendered";
  EXPECT_TRUE(expect_fits({(data / "dlrm-8rank").string()}, "dlrm-8rank as a job"));
  EXPECT_TRUE(expect_fits({(data / "hta/sampled_rank-0.json.gz").string(),
                           (data / "hta/sampled_rank-1.json.gz").string()}, "hta sampled ranks as a job"));
}

// The DLRM job (8 ranks, each with only warm-up steps) opens with its answer, as the synthetic job does
// (report_first_screen_test.cpp).
TEST(ReportExternal, DlrmJobAnswersWithinFortyLines) {
  const auto data = gpuprof::testing::external_data_dir();
  if (data.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  const auto input = report_input(job::analyze_job({(data / "dlrm-8rank").string()}, {}));
  ASSERT_EQ(input.ranks.size(), 8u);
  gpuprof::testing::expect_first_screen_answers(render_text(input), "dlrm-8rank");
  gpuprof::testing::expect_html_leads_with_the_job(render_html(input), "dlrm-8rank");
}

// The nvFuser Nsight export has no step annotations: its summary names the activity span as its window and
// writes a copy's size in binary units.
TEST(ReportExternal, NsysExportSummaryNamesItsWindow) {
  const auto data = gpuprof::testing::external_data_dir();
  if (data.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  const auto trace = data / "nsys-sqlite" / "nvfuser_h200_schema3.17.sqlite";
  if (!fs::exists(trace)) GTEST_SKIP() << "no " << trace;
  auto input = report_input(job::analyze_job({trace.string()}, {}));
  input.sections = {Section::summary};
  const auto text = render_text(input);
  EXPECT_NE(text.find("activity span"), std::string::npos) << text;
  EXPECT_EQ(text.find("steady step periods"), std::string::npos) << text;
  EXPECT_EQ(text.find("idle in steps"), std::string::npos) << text;
  EXPECT_EQ(text.find("394002432 B"), std::string::npos) << text;
  EXPECT_NE(text.find("375.8 MiB"), std::string::npos) << text;
  EXPECT_NE(text.find("in 1 copy,"), std::string::npos) << text;  // its one DtoD copy, not "1 copies"
}

// The HTA NCCL trace's all-reduces of 26.55 MB run at 11.04 GB/s bus bandwidth (2 ranks: factor 1), shown in
// the text, JSON and HTML reports (the exact values are checked in HtaNcclBusBandwidthPerCollective).
TEST(ReportExternal, HtaNcclReportShowsBusBandwidth) {
  const auto data = gpuprof::testing::external_data_dir();
  if (data.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  const auto trace = data / "hta" / "nccl_data_rank0of2.json.gz";
  if (!fs::exists(trace)) GTEST_SKIP() << "no " << trace;
  const auto input = report_input(job::analyze_job({trace.string()}, {}));
  const auto text = render_text(input);
  const auto table = text.find("Collectives per kind and size");
  ASSERT_NE(table, std::string::npos);
  EXPECT_NE(text.find("all_reduce", table), std::string::npos);
  EXPECT_NE(text.find("broadcast", table), std::string::npos);
  EXPECT_NE(text.find("11.04", table), std::string::npos);
  const auto json = render_json(input);
  EXPECT_NE(json.find("\"collective\": \"all_reduce\""), std::string::npos);
  EXPECT_NE(json.find("\"busbw_gbps\": 11.04"), std::string::npos);
  const auto html = render_html(input);
  EXPECT_NE(html.find("Collectives per kind and size"), std::string::npos);
  EXPECT_NE(html.find("11.04"), std::string::npos);
}

}  // namespace
}  // namespace gpuprof::report
