// Predict's documents are written as every gpuprof document is. Its JSON follows the one number policy of every gpuprof document (report/json_fields.hpp):
// a figure that is not finite is null (before: RapidJSON refused it and the document lost the value,
// leaving a key without one), a finite one is rounded to 3 decimals.

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <limits>
#include <string>
#include <vector>

#include "gpuprof/predict/job_check.hpp"
#include "gpuprof/predict/prediction_writers.hpp"
#include "gpuprof/trace/utf8_text.hpp"
#include "markdown_tables.hpp"

namespace gpuprof::predict {
namespace {

rapidjson::Document parsed(const std::string& text) {
  rapidjson::Document document;
  document.Parse(text.c_str(), text.size());
  EXPECT_FALSE(document.HasParseError()) << text;
  return document;
}

TEST(PredictionJson, NonFiniteFiguresAreNullAndTheDocumentStaysValid) {
  Prediction p;
  p.trace = "run.sqlite";
  p.measured_step_ns = std::numeric_limits<double>::quiet_NaN();
  GpuCountPrediction row;
  row.gpus = 2;
  row.step_ns = std::numeric_limits<double>::infinity();
  row.speedup = std::numeric_limits<double>::quiet_NaN();
  row.efficiency = 0.123456;
  row.terms.push_back({"exposed all-reduce", 1234.56789});
  p.rows.push_back(row);
  const auto document = parsed(render_prediction(report::Format::json, p));
  ASSERT_TRUE(document.IsObject());
  EXPECT_TRUE(document["measured_step_ns"].IsNull());
  const auto& first = document["predictions"][0];
  EXPECT_TRUE(first["step_ns"].IsNull());
  EXPECT_TRUE(first["speedup"].IsNull());
  EXPECT_DOUBLE_EQ(first["efficiency"].GetDouble(), 0.123);
  EXPECT_DOUBLE_EQ(first["terms"][0]["ns"].GetDouble(), 1234.568);
}

TEST(PredictionJson, JobCheckWritesNonFiniteSharesAsNull) {
  JobCheck check;
  CommCase rank;
  rank.trace = "rank0.sqlite";
  rank.measured_step_ns = 1e6;
  rank.predicted_step_ns = std::numeric_limits<double>::quiet_NaN();
  rank.measured_exposed_share = 0.42562841;
  check.ranks.push_back(rank);
  const auto document = parsed(render_job_check(report::Format::json, check));
  ASSERT_TRUE(document.IsObject());
  EXPECT_TRUE(document["ranks"][0]["predicted_step_ns"].IsNull());
  EXPECT_DOUBLE_EQ(document["ranks"][0]["measured_exposed_share"].GetDouble(), 0.426);
}

// The CSV is the report's table writer: a term name is quoted only where needed, a quote in it doubled and a
// name a spreadsheet would run as a formula defused (before: every name in quotes, a quote in it left as is).
TEST(PredictionCsv, TermNamesGoThroughTheReportsEscaping) {
  Prediction p;
  GpuCountPrediction row;
  row.gpus = 2;
  row.step_ns = 1500.4;
  row.speedup = 1.5;
  row.efficiency = 0.75;
  row.terms = {{"=cmd|' /C calc'!A0", 100.0}, {"all-reduce over \"link\", measured", -2.0}};
  p.rows.push_back(row);
  EXPECT_EQ(render_prediction(report::Format::csv, p),
            "gpus,step_ns,low_ns,high_ns,speedup,efficiency,term,term_ns,call,lean\n"
            "2,1500,0,0,1.5000,0.7500,'=cmd|' /C calc'!A0,100,faster,too close to call\n"
            "2,1500,0,0,1.5000,0.7500,\"all-reduce over \"\"link\"\", measured\",-2,faster,too close to call\n");
}

// Beside an uncertain call the centre's lean (issue 37), in every format: JSON and CSV as fields of each GPU
// count, Markdown and HTML as columns of the summary beside the call, text in the verdict sentence.
TEST(PredictionOutputs, TheLeanStandsBesideTheCallInEveryFormat) {
  Prediction p;
  p.step_variability = 0.0305;
  GpuCountPrediction row;
  row.gpus = 4;
  row.step_ns = 1.0e6;
  row.speedup = 0.84;
  row.efficiency = 0.21;
  row.call = Call::uncertain;
  row.lean = Lean::no_faster;
  row.verdict = "4 GPUs: 0.84x; uncertain whether faster than one GPU: the band spans 0.40x to 1.04x, its centre "
                "leans no faster";
  row.terms.push_back({"parameter-server exchange", 500.0});
  p.rows.push_back(row);
  const auto json = parsed(render_prediction(report::Format::json, p));
  EXPECT_EQ(std::string(json["predictions"][0]["call"].GetString()), "uncertain");
  EXPECT_EQ(std::string(json["predictions"][0]["lean"].GetString()), "no faster");
  EXPECT_DOUBLE_EQ(json["step_variability_percent"].GetDouble(), 3.05);
  const auto csv = render_prediction(report::Format::csv, p);
  EXPECT_NE(csv.find(",term,term_ns,call,lean\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",500,uncertain,no faster\n"), std::string::npos) << csv;
  EXPECT_NE(render_prediction(report::Format::markdown, p).find("| uncertain | no faster |"), std::string::npos);
  const auto html = render_prediction(report::Format::html, p);
  EXPECT_NE(html.find(">uncertain<"), std::string::npos) << html;
  EXPECT_NE(html.find(">no faster<"), std::string::npos) << html;
  EXPECT_NE(render_prediction(report::Format::text, p).find("its centre leans no faster"), std::string::npos);
}

// In text a figure that is not finite is a word, never a number made up from it (INT64_MIN before).
TEST(PredictionText, NonFiniteFiguresReadNotAvailable) {
  Prediction p;
  p.measured_step_ns = std::numeric_limits<double>::quiet_NaN();
  GpuCountPrediction row;
  row.gpus = 2;
  row.step_ns = std::numeric_limits<double>::infinity();
  row.terms.push_back({"exposed all-reduce", std::numeric_limits<double>::quiet_NaN()});
  p.rows.push_back(row);
  for (const auto format : {report::Format::text, report::Format::markdown, report::Format::html}) {
    const auto text = render_prediction(format, p);
    EXPECT_NE(text.find("step n/a"), std::string::npos) << text;
    EXPECT_EQ(text.find("9223372036854775808"), std::string::npos) << text;
    EXPECT_EQ(text.find("-9223"), std::string::npos) << text;
  }
}

// Names from trace and link files, each a different attack: a table separator, CSV quoting, a spreadsheet formula,
// markup, terminal escapes and bytes that are not UTF-8.
const std::vector<std::string>& hostile_names() {
  static const std::vector<std::string> names = {
      "all|reduce|pipes", "sum, \"quoted\", name", "=cmd|' /C calc'!A0", "+1-2", "@SUM(A1)",
      "<script>alert(1)</script>*_`", "ctl\x1b]0;title\x07\x1b[31mred\r\nnext", "bad\xff\xfeutf8\xc2\x85" "c1"};
  return names;
}

const std::vector<report::Format>& every_format() {
  static const std::vector<report::Format> formats = {report::Format::text, report::Format::markdown,
                                                      report::Format::csv, report::Format::json,
                                                      report::Format::html};
  return formats;
}

// What every format must hold for any name: valid UTF-8 without a control character but tab and newline; on a
// terminal (text, Markdown) no C1 control either; no live markup in HTML or Markdown; CSV fields quoted or
// defused; JSON that parses.
void expect_safe(report::Format format, const std::string& out) {
  EXPECT_TRUE(is_clean_utf8(out)) << out;
  if (format == report::Format::text || format == report::Format::markdown) {
    EXPECT_EQ(out.find("\xc2\x85"), std::string::npos) << out;
    EXPECT_EQ(out.find('\r'), std::string::npos) << out;
    EXPECT_EQ(out.find("\nnext"), std::string::npos) << "a name's line break starts no line of its own: " << out;
  }
  if (format == report::Format::html || format == report::Format::markdown) {
    EXPECT_EQ(out.find("<script>alert"), std::string::npos) << out;
  }
  if (format == report::Format::csv) {
    EXPECT_EQ(out.find("\n=cmd"), std::string::npos) << out;
    EXPECT_EQ(out.find(",=cmd"), std::string::npos) << out;
    EXPECT_EQ(out.find(",@SUM"), std::string::npos) << out;
    EXPECT_EQ(out.find(",+1-2"), std::string::npos) << out;
  }
  if (format == report::Format::json) parsed(out);
}

template <typename Render>
void expect_safe_in_every_format(const Render& render) {
  for (const auto format : every_format()) {
    SCOPED_TRACE("format " + std::to_string(static_cast<int>(format)));
    const auto out = render(format);
    expect_safe(format, out);
    if (format == report::Format::markdown) EXPECT_EQ(gpuprof::testing::first_row_with_other_columns(out), "");
  }
}

Prediction hostile_prediction() {
  Prediction p;
  p.trace = "runs/" + hostile_names()[6] + ".sqlite";
  p.per_gpu_trace = hostile_names()[7];
  p.link_name = hostile_names()[0];
  p.link_source = hostile_names()[5];
  p.gradient_bytes = 1 << 20;
  p.gradient_source = hostile_names()[1];
  p.measured_step_ns = 1.5e6;
  p.replayed_step_ns = 1.4e6;
  GpuCountPrediction row;
  row.gpus = 2;
  row.step_ns = 1.0e6;
  row.low_ns = 0.9e6;
  row.high_ns = 1.2e6;
  row.speedup = 1.5;
  row.efficiency = 0.75;
  row.verdict = "the largest cost is " + hostile_names()[5];
  for (const auto& name : hostile_names()) row.terms.push_back({name, 1000.0});
  p.rows.push_back(row);
  p.notes.push_back("note on " + hostile_names()[6]);
  return p;
}

// Before: text wrote every name raw (terminal escapes reached the terminal), Markdown let control characters
// through and no document but CSV replaced bytes that are not UTF-8.
TEST(PredictionOutputs, HostileNamesAreSafeInEveryFormat) {
  const auto p = hostile_prediction();
  expect_safe_in_every_format([&](report::Format format) { return render_prediction(format, p); });
  // Figures stay beside their names: one CSV line per term, each with its value.
  const auto csv = render_prediction(report::Format::csv, p);
  std::size_t records = 0;
  bool quoted = false;
  for (const char c : csv) {
    if (c == '"') quoted = !quoted;
    if (c == '\n' && !quoted) ++records;
  }
  EXPECT_EQ(records, 1 + hostile_names().size()) << csv;
  EXPECT_NE(csv.find(",'=cmd|' /C calc'!A0,1000,faster,too close to call\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",\"sum, \"\"quoted\"\", name\",1000,faster,too close to call\n"), std::string::npos) << csv;
  // The text's terms table is report's: a rule under its header, each name printable in its row.
  const auto text = render_prediction(report::Format::text, p);
  EXPECT_NE(text.find("ctl?]0;title??[31mred??next"), std::string::npos) << text;
  EXPECT_NE(text.find(" ------"), std::string::npos) << text;
  const auto json = parsed(render_prediction(report::Format::json, p));
  EXPECT_EQ(std::string(json["predictions"][0]["terms"][2]["name"].GetString()), hostile_names()[2]);
}

// `predict --check` in every format, from report's writers: the rank's path and link name are names from files.
TEST(PredictionOutputs, JobCheckHostileNamesAreSafeInEveryFormat) {
  JobCheck check;
  for (const auto& name : hostile_names()) {
    CommCase rank;
    rank.trace = "ranks/" + name + ".sqlite";
    rank.link_name = name;
    rank.measured_step_ns = 2e6;
    rank.predicted_step_ns = 2.2e6;
    rank.measured_exposed_share = 0.1;
    rank.predicted_exposed_share = 0.12;
    rank.comm_kernels = 4;
    rank.sized_kernels = 3;
    check.ranks.push_back(rank);
  }
  check.notes.push_back("link chosen for " + hostile_names()[6]);
  expect_safe_in_every_format([&](report::Format format) { return render_job_check(format, check); });
  // The figures, as the table shows them: 2.000 ms measured, 2.200 predicted, +10 % error.
  const auto csv = render_job_check(report::Format::csv, check);
  EXPECT_NE(csv.find(",2.000,2.200,10.0,10.0,12.0,3,4,"), std::string::npos) << csv;
  const auto text = render_job_check(report::Format::text, check);
  EXPECT_NE(text.find("median |step error| 10.0 %"), std::string::npos) << text;
}

}  // namespace
}  // namespace gpuprof::predict
