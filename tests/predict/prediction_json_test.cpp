// Predict's JSON follows the one number policy of every gpuprof document (report/json_fields.hpp):
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
  const auto document = parsed(render_prediction(PredictFormat::json, p));
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

}  // namespace
}  // namespace gpuprof::predict
