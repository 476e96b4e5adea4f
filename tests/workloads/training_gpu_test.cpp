// Whole-training checks on one GPU: the loss falls, and the strategies and input
// pipeline modes that should not change the arithmetic do not change it.
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "cuda_check.hpp"
#include "gpu_availability.hpp"
#include "trainer.hpp"
#include "training_plan.hpp"

namespace gpuprof::workloads {
namespace {

WorkloadOptions small_run() {
  WorkloadOptions options;
  options.layers = 1;
  options.hidden = 32;
  options.seq_len = 12;
  options.features = 6;
  options.classes = 3;
  options.train_samples = 2048;
  options.validation_samples = 256;
  options.batch = 64;
  options.steps = 40;
  options.learning_rate = 5e-3;
  options.quiet = true;
  return options;
}

TrainingResult train(const WorkloadOptions& options) {
  return train_rnn(options, make_training_plan(options, 1), nullptr);
}

class TrainingGpuTest : public ::testing::Test {
 protected:
  void SetUp() override { GPUPROF_SKIP_WITHOUT_GPU(); }
};

// (cell, precision)
class LossFallsTest : public TrainingGpuTest,
                      public ::testing::WithParamInterface<std::tuple<const char*, const char*>> {};

TEST_P(LossFallsTest, WithinAFewHundredSteps) {
  WorkloadOptions options = small_run();
  options.cell = std::get<0>(GetParam());
  options.precision = std::get<1>(GetParam());
  options.steps = 0;
  options.epochs = 8;  // 32 steps per epoch: 256 steps
  options.layers = 2;
  options.learning_rate = 1e-2;
  const TrainingResult result = train(options);
  const auto& epochs = result.summary.epochs;
  ASSERT_EQ(epochs.size(), 8U);
  const double chance_loss = std::log(3.0);
  // The first epoch's mean already holds learning (a GRU on an H200: 0.83 against chance's
  // 1.10): it may not be far above chance, as a bad initialisation would make it.
  EXPECT_LT(epochs.front().train_loss, chance_loss + 0.25);
  EXPECT_LT(epochs.back().train_loss, 0.85 * epochs.front().train_loss);
  EXPECT_LT(*epochs.back().validation_loss, 0.85 * chance_loss);
  EXPECT_GT(*epochs.back().validation_accuracy, 0.45);  // chance is 1/3
}

INSTANTIATE_TEST_SUITE_P(CellsAndPrecisions, LossFallsTest,
                         ::testing::Combine(::testing::Values("gru", "lstm"), ::testing::Values("fp32", "bf16")),
                         [](const auto& instance) {
                           return std::string(std::get<0>(instance.param)) + "_" + std::get<1>(instance.param);
                         });

TEST_F(TrainingGpuTest, Bf16DataParallelOnOneGpuGivesTheSameWeightsAsSingle) {
  WorkloadOptions single = small_run();
  single.precision = "bf16";
  WorkloadOptions parallel = single;
  parallel.strategy = "data-parallel";
  parallel.overlap_allreduce = true;
  EXPECT_EQ(train(single).final_parameters, train(parallel).final_parameters);
}

TEST_F(TrainingGpuTest, DataParallelOnOneGpuGivesTheSameWeightsAsSingle) {
  WorkloadOptions single = small_run();
  WorkloadOptions parallel = single;
  parallel.strategy = "data-parallel";
  parallel.overlap_allreduce = true;
  parallel.bucket_kib = 4;  // several buckets
  EXPECT_EQ(train(single).final_parameters, train(parallel).final_parameters);
}

TEST_F(TrainingGpuTest, PrefetchAndHostMemoryModesGiveIdenticalResults) {
  WorkloadOptions options = small_run();
  const std::vector<float> reference = train(options).final_parameters;
  for (int prefetch : {1, 2}) {
    for (const char* memory : {"pageable", "pinned"}) {
      options.prefetch = prefetch;
      options.host_memory = memory;
      EXPECT_EQ(train(options).final_parameters, reference) << "prefetch " << prefetch << " " << memory;
    }
  }
}

// The loader pool (1 or 4 threads) and the old inline loader, with the old input path
// (pageable, synchronous) and the new one: the same batches, so the same weights.
TEST_F(TrainingGpuTest, LoaderPoolAndInlineLoaderGiveIdenticalResults) {
  WorkloadOptions options = small_run();
  options.loader = "inline";
  options.host_memory = "pageable";
  options.prefetch = 0;
  const std::vector<float> reference = train(options).final_parameters;
  for (int threads : {1, 4}) {
    options.loader = "pool";
    options.loader_threads = threads;
    EXPECT_EQ(train(options).final_parameters, reference) << "pool of " << threads << ", pageable, synchronous";
    options.host_memory = "pinned";
    options.prefetch = 2;
    EXPECT_EQ(train(options).final_parameters, reference) << "pool of " << threads << ", pinned, prefetch 2";
    options.host_memory = "pageable";
    options.prefetch = 0;
  }
}

TEST_F(TrainingGpuTest, HostStagedMatchesSingleUpToRounding) {
  WorkloadOptions single = small_run();
  single.optimizer = "sgd";
  WorkloadOptions staged = single;
  staged.strategy = "host-staged";
  const auto expected = train(single).final_parameters;
  const auto actual = train(staged).final_parameters;
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    ASSERT_NEAR(actual[i], expected[i], 1e-4 * (1.0 + std::fabs(expected[i]))) << i;
  }
}

TEST_F(TrainingGpuTest, DataParallelOnTwoGpusMatchesSingleUpToRounding) {
  int devices = 0;
  GPUPROF_CHECK(cudaGetDeviceCount(&devices));
  if (devices < 2) GTEST_SKIP() << "needs two GPUs, this machine has " << devices;
  WorkloadOptions single = small_run();
  single.optimizer = "sgd";
  WorkloadOptions parallel = single;
  parallel.gpus = "2";
  parallel.strategy = "data-parallel";
  const auto expected = train(single).final_parameters;
  const auto actual = train_rnn(parallel, make_training_plan(parallel, devices), nullptr).final_parameters;
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    ASSERT_NEAR(actual[i], expected[i], 1e-4 * (1.0 + std::fabs(expected[i]))) << i;
  }
}

TEST_F(TrainingGpuTest, SummaryReportsDevicesAndThroughput) {
  const TrainingResult result = train(small_run());
  ASSERT_EQ(result.summary.device_names.size(), 1U);
  EXPECT_FALSE(result.summary.device_names.front().empty());
  EXPECT_GT(result.summary.samples_per_second, 0.0);
  EXPECT_EQ(result.summary.parameter_count, result.final_parameters.size());
  // 40 steps: the default warm-up of 10 is run but not timed.
  EXPECT_EQ(result.summary.warmup_steps, 10);
  EXPECT_EQ(result.summary.timed_steps, 30);
  EXPECT_GT(result.summary.timed_seconds, 0.0);
  EXPECT_LT(result.summary.timed_seconds, result.summary.training_seconds);
}

// The persistent algorithm auto picks (or its fallback) trains to the weights the standard one
// does, up to rounding.
TEST_F(TrainingGpuTest, AutomaticAndStandardRnnAlgorithmsAgree) {
  WorkloadOptions standard = small_run();
  standard.rnn_algo = "standard";
  WorkloadOptions automatic = small_run();
  const auto expected = train(standard).final_parameters;
  const auto actual = train(automatic).final_parameters;
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    ASSERT_NEAR(actual[i], expected[i], 1e-3 * (1.0 + std::fabs(expected[i]))) << i;
  }
}

// --cuda-graphs: the captured step replays the kernels the eager step launched, with the same
// arguments but Adam's step factors, which are set before each replay: the same weights, bit for bit,
// for GRU and LSTM, Adam and SGD. auto decides from its warm-up measurement, either way the same weights.
TEST_F(TrainingGpuTest, CudaGraphsTrainToTheSameWeightsAsLaunchedSteps) {
  for (const char* cell : {"gru", "lstm"}) {
    for (const char* optimizer : {"adam", "sgd"}) {
      WorkloadOptions eager = small_run();
      eager.cell = cell;
      eager.optimizer = optimizer;
      eager.warmup_steps = 10;
      WorkloadOptions graphed = eager;
      graphed.cuda_graphs = "on";
      const TrainingResult reference = train(eager);
      const TrainingResult result = train(graphed);
      EXPECT_EQ(reference.summary.cuda_graphs, "off (--cuda-graphs off)");
      EXPECT_EQ(result.summary.cuda_graphs, "on (--cuda-graphs on)") << cell << " " << optimizer;
      EXPECT_EQ(result.final_parameters, reference.final_parameters) << cell << " " << optimizer;
      graphed.cuda_graphs = "auto";
      const TrainingResult automatic = train(graphed);
      EXPECT_TRUE(automatic.summary.cuda_graphs.find("(auto: warm-up steps 1-8") != std::string::npos)
          << automatic.summary.cuda_graphs;
      EXPECT_EQ(automatic.final_parameters, reference.final_parameters) << cell << " " << optimizer << " auto";
    }
  }
}

}  // namespace
}  // namespace gpuprof::workloads
