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

TEST(RunSummary, EpochLineSaysWhichStepsWereNotTimed) {
  EpochRecord record{1, 20, 0.5, 0.8, std::nullopt, std::nullopt, 2.0, 640.0};
  record.warmup_steps = 10;
  EXPECT_NE(format_epoch_line(record).find("samples/s 640.0 (10 warm-up steps not timed)"), std::string::npos)
      << format_epoch_line(record);
  record.warmup_steps = 20;
  EXPECT_NE(format_epoch_line(record).find("samples/s - (warm-up only)"), std::string::npos)
      << format_epoch_line(record);
}

TEST(RunSummary, ThroughputCoversTheTimedStepsAndSaysSo) {
  RunSummary summary;
  summary.plan.warmup_steps = 10;
  summary.samples_per_second = 73360.0;
  summary.warmup_steps = 10;
  summary.timed_steps = 30;
  summary.timed_seconds = 0.1047;
  EpochRecord warmup_only{1, 10, 1.2, 0.4, std::nullopt, std::nullopt, 0.5, 0.0};
  warmup_only.warmup_steps = 10;
  summary.epochs = {warmup_only};
  EXPECT_EQ(format_throughput_line(summary),
            "throughput 73360.0 samples/s over 30 timed steps (0.105 s); 10 warm-up steps not timed");
  rapidjson::Document document;
  document.Parse(summary_to_json(summary).c_str());
  ASSERT_FALSE(document.HasParseError());
  EXPECT_EQ(document["warmup_steps"].GetInt(), 10);
  EXPECT_EQ(document["timed_steps"].GetInt(), 30);
  EXPECT_DOUBLE_EQ(document["timed_seconds"].GetDouble(), 0.1047);
  EXPECT_EQ(document["configuration"]["warmup_steps"].GetInt(), 10);
  EXPECT_TRUE(document["epochs"][0]["samples_per_second"].IsNull()) << "an epoch of warm-up only has no figure";
}

// Issue 36 item 6: the summary says which input pipeline fed the timed steps and whether they were graphed.
TEST(RunSummary, StatesTheInputPipelineAndTheCudaGraphDecision) {
  RunSummary summary;
  summary.cuda_graphs = "on (--cuda-graphs on)";
  EXPECT_EQ(format_run_conditions(summary),
            "input pipeline: batches assembled by a pool of 4 loader threads, in pinned host memory, copied 2 ahead "
            "on a copy stream\ncuda graphs: on (--cuda-graphs on)");
  summary.options.loader = "inline";
  summary.options.loader_threads = 2;
  summary.options.host_memory = "pageable";
  summary.options.prefetch = 0;
  summary.options.cuda_graphs = "auto";
  EXPECT_EQ(format_input_pipeline(summary.options),
            "batches assembled inline on the training thread, each batch's rows shared by 2 threads, in pageable "
            "host memory, copied synchronously on the compute stream");
  rapidjson::Document document;
  document.Parse(summary_to_json(summary).c_str());
  ASSERT_FALSE(document.HasParseError());
  EXPECT_EQ(std::string(document["input_pipeline"].GetString()), format_input_pipeline(summary.options));
  EXPECT_STREQ(document["cuda_graphs"].GetString(), "on (--cuda-graphs on)");
  EXPECT_STREQ(document["configuration"]["cuda_graphs"].GetString(), "auto");
}

}  // namespace
}  // namespace gpuprof::workloads
