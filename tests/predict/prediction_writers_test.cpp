// Predict's documents are written as every gpuprof document is. Its JSON follows the one number policy of every gpuprof document (report/json_fields.hpp):
// a figure that is not finite is null (before: RapidJSON refused it and the document lost the value,
// leaving a key without one), a finite one is rounded to 3 decimals.

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <limits>

#include "gpuprof/predict/job_check.hpp"
#include "gpuprof/predict/prediction_writers.hpp"

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
  const auto document = parsed(render_job_check(check, true));
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
            "gpus,step_ns,low_ns,high_ns,speedup,efficiency,term,term_ns\n"
            "2,1500,0,0,1.5000,0.7500,'=cmd|' /C calc'!A0,100\n"
            "2,1500,0,0,1.5000,0.7500,\"all-reduce over \"\"link\"\", measured\",-2\n");
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

}  // namespace
}  // namespace gpuprof::predict
