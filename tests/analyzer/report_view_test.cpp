#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/report/cells.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "model_builder.hpp"
#include "report_fixtures.hpp"
#include "report_width.hpp"
#include "temporary_folder.hpp"

// The terminal view of the text report (issue 18): 120 columns, --top, --gaps all, --wide, readable times.

namespace gpuprof::report {
namespace {

using testing::first_line_wider_than;
using testing::golden_input;
using testing::golden_job_input;

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t found = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++found;
  return found;
}

TEST(TextLayout, ElideMiddleKeepsBothEnds) {
  EXPECT_EQ(elide_middle("short", 10), "short");
  EXPECT_EQ(elide_middle("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 20), "ncclDevKe..._RING_LL");
  EXPECT_EQ(elide_middle("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 20).size(), 20U);
  EXPECT_EQ(elide_middle("abcdef", 2), "..");
  // A cut never splits a UTF-8 character, and the width is in characters (before: bytes, so 8 "é" became 4).
  const auto elided = elide_middle("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 8);
  EXPECT_EQ(elided, "\xc3\xa9\xc3\xa9\xc3\xa9...\xc3\xa9\xc3\xa9");
  EXPECT_EQ(display_width(elided), 8U);
}

// Cells with ±, µ or names in other scripts line up: widths are characters (before: bytes, so a column holding
// "±" was padded one column too far and its neighbours shifted).
TEST(TextLayout, ColumnsAlignByCharacters) {
  Table table{Section::summary, "t", "Speedups", {"Name", "Speedup", "Note"}, {}};
  table.rows.push_back({{"\xc3\xa9t\xc3\xa9", "", false}, {"1.27x \xc2\xb1 0.02", "", true}, {"a", "", false}});
  table.rows.push_back({{"plain", "", false}, {"10.00x", "", true}, {"b", "", false}});
  const auto text = text_table(table);
  std::vector<std::size_t> note_column;
  for (const auto& [row, note] : {std::pair{"\xc3\xa9t\xc3\xa9", " a\n"}, std::pair{"plain", " b\n"}}) {
    const auto start = text.find(row);
    ASSERT_NE(start, std::string::npos) << text;
    const auto line_start = text.rfind('\n', start) + 1;
    note_column.push_back(display_width(text.substr(line_start, text.find(note, start) - line_start)));
  }
  EXPECT_EQ(note_column[0], note_column[1]) << text;
}

// A table too wide whose last column is a number is split into parts that each repeat the columns naming a row
// (the study's results; before, only the study's own layout did this).
TEST(TextLayout, TooWideTableSplitsIntoPartsRepeatingItsKeyColumns) {
  Table table{Section::summary, "t", "Results", {"Model", "Batch"}, {}};
  for (int c = 0; c < 8; ++c) table.columns.push_back("figure " + std::to_string(c));
  for (int r = 0; r < 3; ++r) {
    std::vector<Cell> row{{"model" + std::to_string(r), "", false}, {"64", "64", true}};
    for (int c = 0; c < 8; ++c) row.push_back({"1234.5678 \xc2\xb1 9.1", "", true});
    table.rows.push_back(row);
  }
  const auto text = text_table(table, TextLayout{60, LongText::shorten, 2});
  EXPECT_TRUE(first_line_wider_than(text, 60).empty()) << text;
  EXPECT_GE(count(text, "Results (continued)"), 1U) << text;
  EXPECT_EQ(count(text, " Model "), count(text, "Results")) << text;
  for (int c = 0; c < 8; ++c) EXPECT_EQ(count(text, "figure " + std::to_string(c)), 1U) << text;
  EXPECT_EQ(count(text, "model2 "), count(text, "Results")) << "each part names every row: " << text;
  // Without key columns the table keeps one line per row.
  EXPECT_EQ(count(text_table(table, TextLayout{60}), "Results"), 1U);
}

// Prose in the last column wraps at its spaces under its column, no word cut (the study's failures and changes).
TEST(TextLayout, LongTextWrapsAtWordsUnderItsColumn) {
  Table table{Section::summary, "t", "Failures", {"Run", "Error"}, {}};
  const std::string error = "exit 2: CUDA out of memory while allocating the gradient buckets of the second replica";
  table.rows.push_back({{"rnn_b128_g2", "", false}, {error, "", false}});
  const auto text = text_table(table, TextLayout{50, LongText::words});
  EXPECT_TRUE(first_line_wider_than(text, 50).empty()) << text;
  for (const auto* word : {"allocating", "gradient", "buckets", "second", "replica"}) {
    EXPECT_NE(text.find(std::string(" ") + word), std::string::npos) << word << " whole: " << text;
  }
  const auto first = text.find("exit 2");
  const auto column = first - (text.rfind('\n', first) + 1);
  const auto next_line = text.find('\n', first) + 1;
  EXPECT_EQ(text.substr(next_line, column), std::string(column, ' ')) << "continued under its column: " << text;
  EXPECT_NE(text[next_line + column], ' ') << text;
}

// Strings from files reach a terminal or a Markdown viewer without a control character or markup, titles and
// headers included (before: a Markdown table's title was written as it came, and control characters passed).
TEST(TextLayout, TitlesHeadersAndCellsArePrintableAndEscaped) {
  Table table{Section::summary, "t", "Predicted (<b>link</b> \x1b[31m)", {"Na|me\x07"}, {}};
  table.rows.push_back({{"k\x1b]0;x\x07|*_", "", false}});
  for (const auto& out : {text_table(table), markdown_table(table)}) {
    EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
    EXPECT_EQ(out.find('\x07'), std::string::npos) << out;
  }
  const auto markdown = markdown_table(table);
  EXPECT_EQ(markdown.find("<b>"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("Na\\|me?"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("\\|\\*\\_"), std::string::npos) << markdown;
}

TEST(TextLayout, WrapTextIndentsAndKeepsUnitsWithNumbers) {
  const auto text = wrap_text("  Gaps: ", "    ", "one two three 4.00 us five six seven", 20);
  EXPECT_EQ(text, "  Gaps: one two\n    three 4.00 us\n    five six seven\n");
  // A word longer than a line is cut, never dropped.
  const auto long_word = wrap_text("> ", "  ", std::string(30, 'x'), 12);
  EXPECT_EQ(count(long_word, "x"), 30U);
  EXPECT_TRUE(first_line_wider_than(long_word, 12).empty()) << long_word;
}

TEST(TextLayout, TableFitsByShorteningItsLastTextColumn) {
  Table table{Section::kernels, "t", "Title", {"Count", "Name"}, {}};
  table.rows.push_back({{"1", "1", true}, {std::string(200, 'n') + "_end", "", false}});
  const auto text = text_table(table, 60);
  EXPECT_TRUE(first_line_wider_than(text, 60).empty()) << text;
  EXPECT_NE(text.find("..."), std::string::npos);
  EXPECT_NE(text.find("_end"), std::string::npos);
  EXPECT_NE(text_table(table).find(std::string(200, 'n')), std::string::npos);  // no limit: whole
}

TEST(ReportView, FormatsGetTheirViews) {
  ReportInput input;
  const auto text = table_view(Format::text, input);
  EXPECT_FALSE(text.wide);
  EXPECT_TRUE(text.relative_times);
  EXPECT_FALSE(text.gap_list);
  EXPECT_EQ(text.kernel_rows, kDefaultTopKernels);
  for (const auto format : {Format::csv, Format::json, Format::html}) {
    const auto view = table_view(format, input);
    EXPECT_TRUE(view.wide);
    EXPECT_FALSE(view.relative_times);
    EXPECT_TRUE(view.gap_list);
    EXPECT_EQ(view.kernel_rows, 0U);
  }
  input.top_kernels = 3;
  input.wide = true;
  input.all_gaps = true;
  const auto wide = table_view(Format::markdown, input);
  EXPECT_TRUE(wide.wide);
  EXPECT_TRUE(wide.gap_list);
  EXPECT_EQ(wide.kernel_rows, 3U);
  EXPECT_EQ(table_view(Format::json, input).kernel_rows, 3U);
}

TEST(ReportView, SummaryComesFirstAndTheJobBeforeKernels) {
  const auto text = render_text(golden_job_input());
  const auto summary = text.find("Summary (");
  ASSERT_NE(summary, std::string::npos);
  EXPECT_LT(summary, text.find("Time breakdown per device"));
  EXPECT_LT(text.find("Job summary"), text.find("Kernel summary"));
  // Data-loss warnings stay visible above the summary, and the summary counts them.
  EXPECT_LT(text.find("WARNING (ranks 0, 1): invalid_buffers"), summary);  // said once for both ranks
  EXPECT_NE(text.find("Data loss: 2 warnings on ranks 0, 1"), std::string::npos);
}

TEST(ReportView, TopLimitsKernelRowsInTextAndOnlyOnRequestInJson) {
  auto input = golden_input();
  input.top_kernels = 2;
  const auto text = render_text(input);
  EXPECT_NE(text.find("Kernel summary (the 2 longest per rank; 6 more with --top 0)"), std::string::npos);
  EXPECT_EQ(count(text, "gemm_kernel"), 2U);
  EXPECT_EQ(text.find("dgemv_kern"), std::string::npos);
  // The kernel section alone: the nsys-style summaries have "instances" too.
  auto kernels_only = input;
  kernels_only.sections = {Section::kernels};
  EXPECT_EQ(count(render_json(kernels_only), "\"instances\""), 2U * 2U + 2U * 4U);  // kernels + categories
  input.top_kernels.reset();
  kernels_only.top_kernels.reset();
  EXPECT_EQ(count(render_json(kernels_only), "\"instances\""), 2U * 5U + 2U * 4U);  // every kernel row
  EXPECT_NE(render_text(input).find("dgemv_kern"), std::string::npos);       // 5 rows < 15
}

TEST(ReportView, WideAndGapsAllAddColumnsAndRows) {
  auto input = golden_input();
  const auto compact = render_text(input);
  EXPECT_EQ(compact.find("Memcpy hidden%"), std::string::npos);
  EXPECT_EQ(compact.find("StdDev"), std::string::npos);
  EXPECT_NE(compact.find("Batch gaps per device"), std::string::npos);
  EXPECT_EQ(compact.find("After warm-up"), std::string::npos);
  EXPECT_NE(compact.find("data_loading 2"), std::string::npos);
  input.all_gaps = true;
  const auto gaps = render_text(input);
  EXPECT_NE(gaps.find("After warm-up"), std::string::npos);
  EXPECT_EQ(gaps.find("Memcpy hidden%"), std::string::npos);
  input.wide = true;
  const auto wide = render_text(input);
  EXPECT_NE(wide.find("Memcpy hidden%"), std::string::npos);
  EXPECT_NE(wide.find("StdDev"), std::string::npos);
  EXPECT_NE(wide.find("data_loading 2 (7.80 us)"), std::string::npos);
}

TEST(ReportView, TimesRelativeInTextAbsoluteInCsv) {
  const auto input = golden_input();
  const auto text = render_text(input);
  EXPECT_NE(text.find("Start: since the rank's first GPU activity"), std::string::npos);
  EXPECT_EQ(text.find("Start (ns)"), std::string::npos);
  EXPECT_NE(text.find("10.0 us"), std::string::npos);  // step 1 starts at 11000, the first kernel at 1000
  const auto csv = render_csv(input);
  EXPECT_NE(csv.find("Start (ns)"), std::string::npos);
  EXPECT_NE(csv.find(",11000,"), std::string::npos);
  EXPECT_NE(render_json(input).find("\"trace_start_ns\": 1000"), std::string::npos);
}

TEST(ReportView, JsonCarriesTheSummaryAndGapSummary) {
  auto input = golden_job_input();
  const auto json = render_json(input);
  EXPECT_NE(json.find("\"summary\": {"), std::string::npos);
  EXPECT_NE(json.find("\"part\": \"batch_gaps\""), std::string::npos);
  EXPECT_NE(json.find("\"longest_wait_rank\""), std::string::npos);
  EXPECT_NE(json.find("\"gap_summary\": ["), std::string::npos);
  input.sections = {Section::gaps};
  const auto gaps_only = render_json(input);
  EXPECT_NE(gaps_only.find("\"summary\": null"), std::string::npos);
  EXPECT_NE(gaps_only.find("\"p95_ns\""), std::string::npos);
}

// Hostile names, paths and warnings are wrapped or shortened, never cut off the screen.
TEST(ReportWidth, LongNamesPathsAndWarningsFit) {
  auto model = testing::golden_model(0);
  model.path = "/a/very/long/folder/" + std::string(150, 'p') + "/trace.sqlite";
  model.stats.push_back({"records_dropped", 7, trace::Severity::warning, std::string(300, 'w') + " tail"});
  testing::ModelBuilder builder;
  auto input = golden_input();
  input.ranks[0] = analysis::analyze_rank(model, {});
  input.ranks[0].kernels.kernels[0].name = "void ns::" + std::string(400, 'k') + "<int>(float*)";
  input.ranks[0].kernels.kernels[0].short_name = std::string(400, 'k');
  for (const bool full_names : {false, true}) {
    input.full_names = full_names;
    const auto text = render_text(input);
    EXPECT_TRUE(first_line_wider_than(text, kTerminalWidth).empty()) << first_line_wider_than(text, kTerminalWidth);
    EXPECT_NE(text.find("records_dropped = 7"), std::string::npos);
    EXPECT_NE(text.find(" tail"), std::string::npos);  // the whole warning is there, wrapped
  }
}

// Every line of the default text report fits 120 columns on synthetic jobs of 1 to 8 GPUs and 2 ranks.
TEST(ReportWidth, SyntheticTracesFit) {
  gpuprof::testing::TemporaryFolder folder;
  for (const std::int32_t devices : {1, 2, 4, 8}) {
    std::vector<std::string> paths;
    for (std::int32_t rank = 0; rank < 2; ++rank) {
      synthetic::SynthOptions options;
      options.devices = devices;
      options.steps = 30;
      options.kernels_per_step = 40;
      options.rank = rank;
      options.world_size = 2;
      options.seed = static_cast<std::uint64_t>(devices * 10 + rank);
      paths.push_back(folder.file("synth_" + std::to_string(devices) + "_" + std::to_string(rank) + ".sqlite"));
      synthetic::write_synthetic_trace(paths.back(), options);
    }
    for (const auto& inputs : {std::vector<std::string>{paths[0]}, paths}) {
      const auto text = render_text(report_input(job::analyze_job(inputs, {})));
      EXPECT_TRUE(first_line_wider_than(text, kTerminalWidth).empty())
          << devices << " GPUs, " << inputs.size() << " ranks: " << first_line_wider_than(text, kTerminalWidth);
      EXPECT_NE(text.find("Summary ("), std::string::npos);
    }
  }
}

// --full-names: a name longer than its column continues on the next lines, whole, within 120 columns.
TEST(ReportView, FullNamesWrapInsteadOfBeingShortened) {
  const std::string name = "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_" + std::string(150, 'x') + "_align4>(Params)";
  Table table{Section::kernels, "kernels", "Kernel summary", {"Rank", "Time%", "Name"}, {}};
  table.rows.push_back({{"0", "0", true}, {"12.5", "12.5", true}, {name, name, false}});
  const auto wrapped = text_table(table, kTerminalWidth, true);
  EXPECT_EQ(first_line_wider_than(wrapped, kTerminalWidth), "");
  std::string joined;
  for (std::size_t at = wrapped.find(" void"); at < wrapped.size();) {
    const auto end = wrapped.find('\n', at);
    joined += wrapped.substr(at, end - at);
    at = end + 1;
    while (at < wrapped.size() && wrapped[at] == ' ') ++at;
  }
  EXPECT_NE(joined.find(name), std::string::npos) << wrapped;
  EXPECT_NE(text_table(table, kTerminalWidth).find("..."), std::string::npos) << "without it, shortened";
}

// Without step annotations the summary says what its window is, and sizes and counts read as people write them.
TEST(ReportView, WithoutStepsTheSummaryNamesItsWindow) {
  gpuprof::testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  synthetic::SynthOptions options;
  options.devices = 1, options.steps = 3;
  synthetic::write_synthetic_trace(path, options);
  job::JobOptions job_options;
  job_options.analysis.step_pattern = "^no step is called this (\\d+)$";
  auto input = report_input(job::analyze_job({path}, job_options));
  input.sections = {Section::summary};
  const auto text = render_text(input);
  EXPECT_NE(text.find("Summary (no steps: each device's activity span is its window)"), std::string::npos) << text;
  EXPECT_EQ(text.find("idle in steps"), std::string::npos) << text;
  EXPECT_EQ(text.find("Idle in steps"), std::string::npos) << text;
  EXPECT_NE(text.find("activity spans, no steps"), std::string::npos) << text;
  EXPECT_EQ(text.find(" 1 copies"), std::string::npos) << text;
}

// Mean counts read as counts: "29", not "29.00"; a fraction keeps its decimals, and machines get the raw value.
TEST(ReportView, WholeMeanCountsHaveNoDecimals) {
  EXPECT_EQ(count_cell(29.0).text, "29");
  EXPECT_EQ(count_cell(0.0).text, "0");
  EXPECT_EQ(count_cell(3.5).text, "3.50");
  EXPECT_EQ(count_cell(29.0).raw, "29.00");
}

// Two different names that shorten to the same text are told apart by a number, not shown as one name twice.
TEST(ReportView, ShortenedNamesThatCollideAreNumbered) {
  const std::string head = "sm80_xmma_fprop_implicit_gemm_", tail = "_execute_kernel__5x_cudnn";
  Table table{Section::kernels, "kernels", "Kernel summary", {"Rank", "Name"}, {}};
  for (const char* middle : {"f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8",
                             "f32f32_tf32f32_f32_nhwckrsc_nchw_tilesize64x64x32_stage5_warpsize2x2x1_g1_tensor16x8x8"}) {
    table.rows.push_back({{"0", "0", true}, {head + middle + tail, "", false}});
  }
  table.rows.push_back(table.rows.front());  // the same kernel again (another rank): the same number
  const auto text = text_table(table, 60);
  EXPECT_EQ(first_line_wider_than(text, 60), "");
  EXPECT_EQ(count(text, " #1\n"), 2u) << text;
  EXPECT_EQ(count(text, " #2\n"), 1u) << text;
}

// A duration that is not finite reads as a word, with no raw value for CSV (before: INT64_MIN, a made-up time).
TEST(ReportCells, NonFiniteDurationIsAWordNotANumber) {
  for (const double ns : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    const auto cell = duration_cell(ns);
    EXPECT_EQ(cell.text, "n/a");
    EXPECT_EQ(cell.raw, "");
  }
  EXPECT_EQ(duration_cell(1500.4).raw, "1500");
  // Every figure cell follows the same policy (before: number_cell wrote "nan" and "inf").
  for (const double value : {std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(number_cell(value, 2).text, "n/a");
    EXPECT_EQ(number_cell(value, 2).raw, "");
  }
  EXPECT_EQ(number_cell(2.5, 0).raw, "2");  // fmt's rounding, as before
}

}  // namespace
}  // namespace gpuprof::report
