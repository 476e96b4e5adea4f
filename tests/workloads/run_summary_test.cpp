#include "run_summary.hpp"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

namespace gpuprof::workloads {
namespace {

TEST(RunSummary, JsonHoldsConfigurationDevicesEpochsAndFinalMetrics) {
  RunSummary summary;
  summary.options.cell = "lstm";
  summary.plan.gpu_count = 2;
  summary.plan.per_gpu_batch = 32;
  summary.plan.strategy = Strategy::data_parallel;
  summary.device_names = {"GPU A", "GPU B"};
  summary.parameter_count = 1234;
  EpochRecord first{1, 10, 1.2, 0.4, std::nullopt, std::nullopt, 0.5, 1280.0};
  EpochRecord second{2, 10, 0.9, 0.6, 0.95, 0.58, 0.5, 1280.0};
  summary.epochs = {first, second};
  summary.training_seconds = 1.0;
  summary.samples_per_second = 1280.0;

  rapidjson::Document document;
  document.Parse(summary_to_json(summary).c_str());
  ASSERT_FALSE(document.HasParseError());
  EXPECT_STREQ(document["format"].GetString(), "gpuprof.workload/1");
  EXPECT_STREQ(document["configuration"]["cell"].GetString(), "lstm");
  EXPECT_STREQ(document["configuration"]["strategy"].GetString(), "data-parallel");
  EXPECT_EQ(document["configuration"]["gpus"].GetInt(), 2);
  EXPECT_EQ(document["devices"].Size(), 2U);
  EXPECT_EQ(document["epochs"].Size(), 2U);
  EXPECT_TRUE(document["epochs"][0]["validation_loss"].IsNull());
  EXPECT_DOUBLE_EQ(document["final"]["validation_accuracy"].GetDouble(), 0.58);
  EXPECT_DOUBLE_EQ(document["samples_per_second"].GetDouble(), 1280.0);
}

TEST(RunSummary, EpochLineNamesEveryFigure) {
  const EpochRecord record{3, 20, 0.5, 0.8, 0.6, 0.75, 2.0, 640.0};
  const std::string line = format_epoch_line(record);
  for (const char* word : {"epoch 3", "loss 0.5000", "accuracy 0.8000", "val_loss 0.6000",
                           "val_accuracy 0.7500", "seconds 2.000", "samples/s 640.0"}) {
    EXPECT_NE(line.find(word), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace gpuprof::workloads
