#include "training_plan.hpp"

#include <gtest/gtest.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

TEST(SplitBatch, SplitsEvenly) {
  EXPECT_EQ(split_batch(64, 1), std::vector<int>({64}));
  EXPECT_EQ(split_batch(64, 2), std::vector<int>({32, 32}));
  EXPECT_EQ(split_batch(96, 3), std::vector<int>({32, 32, 32}));
}

TEST(SplitBatch, RefusesARemainderAndNamesIt) {
  try {
    split_batch(65, 2);
    FAIL() << "65 split across 2";
  } catch (const WorkloadError& error) {
    EXPECT_NE(std::string(error.what()).find("remainder 1"), std::string::npos) << error.what();
  }
  EXPECT_THROW(split_batch(2, 4), WorkloadError);
  EXPECT_THROW(split_batch(8, 0), WorkloadError);
}

TEST(ResolveGpuCount, ReadsNumbersAndAll) {
  EXPECT_EQ(resolve_gpu_count("1", 4), 1);
  EXPECT_EQ(resolve_gpu_count("3", 4), 3);
  EXPECT_EQ(resolve_gpu_count("all", 4), 4);
}

TEST(ResolveGpuCount, RefusesMoreThanPresentAndNonsense) {
  try {
    resolve_gpu_count("2", 1);
    FAIL();
  } catch (const WorkloadError& error) {
    EXPECT_NE(std::string(error.what()).find("more GPUs than this machine has (1)"), std::string::npos);
  }
  EXPECT_THROW(resolve_gpu_count("0", 2), WorkloadError);
  EXPECT_THROW(resolve_gpu_count("two", 2), WorkloadError);
  EXPECT_THROW(resolve_gpu_count("2x", 2), WorkloadError);
}

TEST(TrainingPlan, CountsStepsFromEpochs) {
  WorkloadOptions options;
  options.train_samples = 1000;
  options.validation_samples = 130;
  options.batch = 64;
  options.epochs = 3;
  const TrainingPlan plan = make_training_plan(options, 1);
  EXPECT_EQ(plan.steps_per_epoch, 15);  // the remainder of 40 samples is dropped
  EXPECT_EQ(plan.total_steps, 45);
  EXPECT_EQ(plan.epochs, 3);
  EXPECT_EQ(plan.validation_batch, 64);
  EXPECT_EQ(plan.validation_batches, 3);
}

TEST(TrainingPlan, StepsOverrideEpochs) {
  WorkloadOptions options;
  options.train_samples = 1000;
  options.batch = 100;
  options.steps = 25;
  const TrainingPlan plan = make_training_plan(options, 1);
  EXPECT_EQ(plan.total_steps, 25);
  EXPECT_EQ(plan.epochs, 3);
}

TEST(TrainingPlan, DataParallelSplitsTheGlobalBatch) {
  WorkloadOptions options;
  options.batch = 256;
  options.gpus = "all";
  options.strategy = "data-parallel";
  const TrainingPlan plan = make_training_plan(options, 4);
  EXPECT_EQ(plan.gpu_count, 4);
  EXPECT_EQ(plan.per_gpu_batch, 64);
  EXPECT_EQ(plan.strategy, Strategy::data_parallel);
}

TEST(TrainingPlan, SingleStrategyRefusesSeveralGpus) {
  WorkloadOptions options;
  options.gpus = "2";
  EXPECT_THROW(make_training_plan(options, 2), WorkloadError);
}

TEST(TrainingPlan, UnevenBatchAcrossGpusIsRefused) {
  WorkloadOptions options;
  options.batch = 63;
  options.gpus = "2";
  options.strategy = "host-staged";
  EXPECT_THROW(make_training_plan(options, 2), WorkloadError);
}

TEST(TrainingPlan, PlacedStrategiesKeepTheWholeBatchOnOneModel) {
  WorkloadOptions options;
  options.model = "towers";
  options.strategy = "tower-parallel";
  options.gpus = "2";
  options.batch = 64;
  const TrainingPlan plan = make_training_plan(options, 2);
  EXPECT_EQ(plan.strategy, Strategy::tower_parallel);
  EXPECT_EQ(plan.gpu_count, 2);
  EXPECT_EQ(plan.replicas, 1);
  EXPECT_EQ(plan.per_gpu_batch, 64);
  EXPECT_TRUE(places_layers_across_gpus(plan.strategy));
}

TEST(TrainingPlan, PlacedStrategiesRefuseAOneGpuMachine) {
  WorkloadOptions options;
  options.model = "towers";
  options.strategy = "alternate";
  options.gpus = "all";
  try {
    make_training_plan(options, 1);
    FAIL() << "alternate accepted on one GPU";
  } catch (const WorkloadError& error) {
    EXPECT_EQ(error.exit_code(), exit_bad_input);
    EXPECT_NE(std::string(error.what()).find("needs at least 2 GPUs"), std::string::npos) << error.what();
  }
}

TEST(TrainingPlan, DataParallelHasAReplicaPerGpu) {
  WorkloadOptions options;
  options.model = "mlp";
  options.strategy = "data-parallel";
  options.gpus = "2";
  options.batch = 64;
  const TrainingPlan plan = make_training_plan(options, 2);
  EXPECT_EQ(plan.replicas, 2);
  EXPECT_EQ(plan.per_gpu_batch, 32);
}

}  // namespace
}  // namespace gpuprof::workloads
