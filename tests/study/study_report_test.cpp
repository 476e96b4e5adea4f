// The report from a synthetic study: exact figures, and the text and JSON
// layouts against golden files (tests/study/golden/).

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "gpuprof/study/study_report.hpp"
#include "gpuprof/study/study_writers.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/trace/utf8_text.hpp"
#include "markdown_tables.hpp"

namespace gpuprof::study {
namespace {

// 1 GPU: 2 ms + 0.1 ms per sample; 2 GPUs: 12 ms + 0.05 ms per sample (break-even at 200);
// three repeats with a fixed ±2% pattern; 2 GPUs at batch 128 failed once out of memory.
StudyData synthetic_study() {
  StudyData data;
  data.meta = {{"workload", "rnn"}, {"strategy", "data-parallel"}, {"format", "gpuprof.study"}, {"version", "1"}};
  const double wiggle[] = {1.0, 1.02, 0.98};
  std::int64_t id = 0;
  for (const std::int64_t batch : {64, 128, 256, 512}) {
    for (const std::int64_t gpus : {1, 2}) {
      const Configuration configuration{"rnn", batch, gpus, gpus == 1 ? "single" : "data-parallel"};
      data.configurations.push_back(configuration);
      const double step = gpus == 1 ? 0.002 + 1e-4 * static_cast<double>(batch)
                                    : 0.012 + 5e-5 * static_cast<double>(batch);
      for (std::int64_t repeat = 1; repeat <= 3; ++repeat) {
        RunRecord run{++id, configuration.name(), repeat, RunKind::profiled, RunStatus::ok, 0, "", 0, 0, 1.0, {}};
        if (batch == 128 && gpus == 2 && repeat == 3) {
          run.status = RunStatus::failed;
          run.exit_code = 2;
          run.error = "exit 2: out of memory";
          data.runs.push_back(run);
          continue;
        }
        data.runs.push_back(run);
        RunResult result;
        result.seconds_per_step = step * wiggle[repeat - 1];
        result.time_seconds = *result.seconds_per_step * 100;
        result.time_source = "summary";
        result.summary.model = "rnn";
        result.summary.epochs = 1;
        result.summary.steps = 100;
        result.summary.training_seconds = result.time_seconds;
        result.summary.samples_per_second = static_cast<double>(batch) / *result.seconds_per_step;
        result.summary.accuracy = 0.9 - 0.0001 * static_cast<double>(batch);
        result.summary.validation_accuracy = 0.85 - 0.0001 * static_cast<double>(batch);
        data.results[run.id] = result;
      }
      if (batch == 64) {
        data.runs.push_back({++id, configuration.name(), 1, RunKind::calibration, RunStatus::ok, 0, "", 0, 0, 1.0, {}});
        RunResult calibration;
        calibration.time_seconds = step * 100 / 1.05;
        calibration.time_source = "summary";
        data.results[id] = calibration;
      }
    }
  }
  return data;
}

std::map<std::string, BreakdownTotals> synthetic_breakdowns() {
  return {{"rnn_b64_g1_single", {600, 100, 0, 300, 40, 1}},
          {"rnn_b64_g2_data-parallel", {300, 100, 400, 200, 80, 1}}};
}

// GPUPROF_UPDATE_GOLDEN=1 rewrites the file from `actual` (review the diff before keeping it).
std::string golden(const std::string& name, const std::string& actual) {
  const auto path = std::string(GPUPROF_SOURCE_DIR) + "/tests/study/golden/" + name;
  if (std::getenv("GPUPROF_UPDATE_GOLDEN") != nullptr) std::ofstream(path, std::ios::binary) << actual;
  std::ifstream file(path, std::ios::binary);
  std::ostringstream content;
  content << file.rdbuf();
  return content.str();
}

TEST(StudyReport, SpeedupsAndBreakEvenFromRepeats) {
  const auto report = build_study_report(synthetic_study(), synthetic_breakdowns());
  EXPECT_EQ(report.time_basis, "step");
  ASSERT_EQ(report.rows.size(), 8u);
  const auto& b64_two = report.rows[1];
  ASSERT_TRUE(b64_two.speedup);
  EXPECT_EQ(b64_two.speedup->n, 3u);
  // Mean over repeats of (mean 1-GPU step time / this repeat's step time).
  const double base = 0.0084;
  const double expected = (base / 0.0152 + base / (0.0152 * 1.02) + base / (0.0152 * 0.98)) / 3;
  EXPECT_NEAR(b64_two.speedup->mean, expected, 1e-9);
  EXPECT_EQ(report.rows[3].runs_failed, 1u);
  ASSERT_TRUE(report.rows[0].overhead);
  EXPECT_NEAR(*report.rows[0].overhead, 0.05, 1e-9);
  ASSERT_EQ(report.break_evens.size(), 1u);
  EXPECT_EQ(report.break_evens[0].point.kind, BreakEvenKind::breaks_even);
  EXPECT_NEAR(report.break_evens[0].point.batch, 200, 5);
  EXPECT_LE(report.break_evens[0].interval.low, 200);
  EXPECT_GE(report.break_evens[0].interval.high, 200);
  ASSERT_EQ(report.failures.size(), 1u);
}

TEST(StudyReport, TextMatchesGolden) {
  const auto report = build_study_report(synthetic_study(), synthetic_breakdowns());
  const auto text = render_study_text(report);
  EXPECT_EQ(text, golden("study.txt", text));
}

// Every line of the text fits 120 columns (it reached 290); --wide keeps one line per row.
TEST(StudyReport, TextFitsTheScreenUnlessWide) {
  const auto report = build_study_report(synthetic_study(), synthetic_breakdowns());
  std::size_t widest = 0, widest_wide = 0;
  const auto measure = [](const std::string& text, std::size_t& widest_line) {
    std::size_t start = 0;
    while (start < text.size()) {
      const auto end = text.find('\n', start);
      const auto line = text.substr(start, end - start);
      std::size_t characters = 0;
      for (const char c : line) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      widest_line = std::max(widest_line, characters);
      start = end == std::string::npos ? text.size() : end + 1;
    }
  };
  measure(render_study_text(report), widest);
  measure(render_study_text(report, true), widest_wide);
  EXPECT_LE(widest, kTextWidth);
  EXPECT_GT(widest_wide, kTextWidth);
}

TEST(StudyReport, JsonMatchesGolden) {
  const auto report = build_study_report(synthetic_study(), synthetic_breakdowns());
  const auto json = render_study_json(report);
  EXPECT_EQ(json, golden("study.json", json));
}

TEST(StudyReport, OtherFormatsCarryTheSameFigures) {
  const auto report = build_study_report(synthetic_study(), synthetic_breakdowns());
  EXPECT_NE(render_study_markdown(report).find("| 1.00x |"), std::string::npos);
  EXPECT_NE(render_study_csv(report).find("# break_even\n"), std::string::npos);
  const auto html = render_study_html(report);
  // Self-contained and offline: the only script is the table script every document ends with, nothing loaded.
  const auto own_script = html.find(report::html_script());
  ASSERT_NE(own_script, std::string::npos);
  EXPECT_EQ(html.find("<script"), own_script);
  EXPECT_EQ(html.find("<script", own_script + 1), std::string::npos);
  for (const char* external : {" src=", "href=\"http", "@import", "url("}) {
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  }
  EXPECT_NE(html.find("stroke-dasharray"), std::string::npos);  // the 1.0 speedup line
  EXPECT_NE(html.find("2 GPUs: 20"), std::string::npos);         // the break-even marker
}

// Names in a study's tables come from the study file and the traces (a waterfall's configuration, a failed
// run's error line): the CSV defuses what a spreadsheet would run as a formula, the Markdown escapes markup
// and emphasis, as the report does (before: only quoting and pipes).
TEST(StudyReport, HostileNamesAreEscapedInCsvAndMarkdown) {
  auto report = build_study_report(synthetic_study(), synthetic_breakdowns());
  report.failures.push_back({"=cmd|' /C calc'!A0", 1, RunKind::profiled, RunStatus::failed, 2, "-2+3+cmd|' /C calc'!A0"});
  report.waterfalls.push_back({"@SUM(1+1)*cmd|' /C calc'!A0", "base", 1e6, 2e6, {{"<b>kernel_name</b>", 1e6}}});
  const auto csv = render_study_csv(report);
  EXPECT_NE(csv.find("\n'=cmd|' /C calc'!A0,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",'-2+3+cmd|' /C calc'!A0\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n'@SUM(1+1)*cmd|' /C calc'!A0,"), std::string::npos) << csv;
  const auto markdown = render_study_markdown(report);
  EXPECT_EQ(markdown.find("<b>"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("&lt;b&gt;kernel\\_name&lt;/b&gt;"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("@SUM(1+1)\\*cmd\\|"), std::string::npos) << markdown;
  // Figures stay as they were: a signed change is a number, not a formula.
  EXPECT_EQ(csv.find("'+"), std::string::npos) << csv;
}

// Every kind of hostile name a study carries (the study file's workload and configurations, a failed run's
// error line, kernel-derived parts of a waterfall, the link and strategy of its predictions), in every format.
// Before: the Markdown title and a table's title were written raw (live <script>), and the HTML tables were
// the study's own.
TEST(StudyReport, HostileNamesAreSafeInEveryFormat) {
  auto report = build_study_report(synthetic_study(), synthetic_breakdowns());
  const std::string attack = "<script>alert(1)</script>|a,\"b\"*_\x1b[31m\x07\r\nnext\xc2\x85\xff";
  report.title = "Scaling study: " + attack;
  report.failures.push_back({"=cmd|' /C calc'!A0", 1, RunKind::profiled, RunStatus::failed, 2, attack});
  report.waterfalls.push_back({"@SUM(1+1)", "base", 1e6, 2e6, {{attack, 1e6}}});
  report.predictions = StudyPredictions{attack, "+" + attack, {{64, 2, false, 1.5, 1.2, 1.8, 1.4}}, {}};
  report.notices.push_back("trace " + attack + " has no GPU activity");
  for (const auto format : {report::Format::text, report::Format::markdown, report::Format::csv,
                            report::Format::json, report::Format::html}) {
    for (const bool wide : {false, true}) {
      SCOPED_TRACE("format " + std::to_string(static_cast<int>(format)) + (wide ? " wide" : ""));
      const auto out = render_study(format, report, wide);
      EXPECT_TRUE(is_clean_utf8(out)) << out;
      if (format == report::Format::html || format == report::Format::markdown) {
        EXPECT_EQ(out.find("<script>alert"), std::string::npos) << out;
      }
      if (format == report::Format::text || format == report::Format::markdown) {
        EXPECT_EQ(out.find("\xc2\x85"), std::string::npos) << out;
        EXPECT_EQ(out.find('\r'), std::string::npos) << out;
        EXPECT_EQ(out.find("\nnext"), std::string::npos) << "a name's line break starts no line of its own: " << out;
      }
      if (format == report::Format::csv) {
        EXPECT_EQ(out.find("\n=cmd"), std::string::npos) << out;
        EXPECT_EQ(out.find("\n@SUM"), std::string::npos) << out;
      }
      // A row keeps its columns: as many unescaped pipes as the header of its table.
      if (format == report::Format::markdown) EXPECT_EQ(gpuprof::testing::first_row_with_other_columns(out), "");
    }
  }
  // The text's tables are report's: within the screen, a rule under each header.
  const auto text = render_study_text(report);
  EXPECT_NE(text.find("Runs that did not succeed\n\n Configuration"), std::string::npos) << text;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    EXPECT_LE(report::display_width(text.substr(start, end - start)), kTextWidth);
    start = end == std::string::npos ? text.size() : end + 1;
  }
}

// HTML tables are report's: numeric cells right-aligned and sorted by their value, titles at the level of every
// document's tables (before: the study's own writer, with "8.400 ± 0.168" left as text).
TEST(StudyReport, HtmlTablesAreTheReportsTables) {
  const auto report = build_study_report(synthetic_study(), synthetic_breakdowns());
  const auto html = render_study_html(report);
  EXPECT_NE(html.find("<h3>Results (mean ± standard deviation over repeats)</h3>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"n\" data-v=\"8.400 ± 0.168\">8.400 ± 0.168</td>"), std::string::npos) << html;
}

}  // namespace
}  // namespace gpuprof::study
