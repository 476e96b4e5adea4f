#include <string>

#include <gtest/gtest.h>

#include "gpu_availability.hpp"
#include "process_runner.hpp"

namespace {

using gpuprof::testing::run_process;

TEST(WorkloadBinary, WithoutAGpuSaysSoAndExitsTwo) {
  if (gpuprof::workloads::testing::why_no_gpu().empty()) GTEST_SKIP() << "this machine has a GPU";
  const auto result = run_process({GPUPROF_WORKLOAD_BINARY, "rnn", "--steps", "5"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no usable CUDA GPU"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << "one line: " << result.err;
}

TEST(WorkloadBinary, BadOptionsFailWithOneLineAndExitTwoOnAnyMachine) {
  const auto result = run_process({GPUPROF_WORKLOAD_BINARY, "rnn", "--batch", "0"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("--batch must be between"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << result.err;
}

TEST(WorkloadBinary, AWarmupThatLeavesNoTimedStepIsRefusedOnAnyMachine) {
  const auto result = run_process({GPUPROF_WORKLOAD_BINARY, "rnn", "--steps", "5", "--warmup-steps", "5"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("--warmup-steps 5 leaves no timed step"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << "one line: " << result.err;
}

TEST(WorkloadBinary, UnknownPrecisionIsAUsageError) {
  const auto result = run_process({GPUPROF_WORKLOAD_BINARY, "rnn", "--precision", "fp16"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("--precision"), std::string::npos) << result.err;
}

TEST(WorkloadBinary, UnknownModelIsAUsageError) {
  const auto result = run_process({GPUPROF_WORKLOAD_BINARY, "cnn"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("cnn"), std::string::npos) << result.err;
}

TEST(WorkloadBinary, Bf16WithoutAGpuSaysSoAndExitsTwo) {
  if (gpuprof::workloads::testing::why_no_gpu().empty()) GTEST_SKIP() << "this machine has a GPU";
  const auto result = run_process({GPUPROF_WORKLOAD_BINARY, "resnet", "--precision", "bf16", "--steps", "2"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("no usable CUDA GPU"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << result.err;
}

TEST(WorkloadBinary, NewModelsWithoutAGpuSaySoAndExitTwo) {
  if (gpuprof::workloads::testing::why_no_gpu().empty()) GTEST_SKIP() << "this machine has a GPU";
  for (const char* model : {"towers", "mlp", "resnet"}) {
    const auto result = run_process({GPUPROF_WORKLOAD_BINARY, model, "--steps", "2"});
    EXPECT_EQ(result.exit_code, 2) << model;
    EXPECT_NE(result.err.find("no usable CUDA GPU"), std::string::npos) << result.err;
    EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << "one line: " << result.err;
  }
}

TEST(WorkloadBinary, MultiGpuStrategiesOnOneGpuAreRefusedNotFaked) {
  for (const char* strategy : {"tower-parallel", "alternate"}) {
    const auto result = run_process({GPUPROF_WORKLOAD_BINARY, "towers", "--strategy", strategy, "--gpus", "1"});
    EXPECT_EQ(result.exit_code, 2) << strategy;
    EXPECT_NE(result.err.find("needs --gpus 2 or more"), std::string::npos) << result.err;
    EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << result.err;
  }
}

TEST(WorkloadBinary, AStrategyTheModelLacksIsABadOption) {
  const auto result = run_process({GPUPROF_WORKLOAD_BINARY, "mlp", "--strategy", "tower-parallel", "--gpus", "2"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("not available for the mlp model"), std::string::npos) << result.err;
}

TEST(WorkloadBinary, PrintPlanNeedsNoGpu) {
  const auto result = run_process(
      {GPUPROF_WORKLOAD_BINARY, "towers", "--strategy", "alternate", "--gpus", "2", "--print-plan"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("transfers between GPUs per step: 16"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("GPU 1: user.conv user.dense item.conv item.dense"), std::string::npos) << result.out;
}

TEST(WorkloadBinary, HelpListsTheOptions) {
  const auto result = run_process({GPUPROF_WORKLOAD_BINARY, "--help"});
  EXPECT_EQ(result.exit_code, 0);
  for (const char* option : {"--cell", "--prefetch", "--host-memory", "--strategy", "--gpus", "--summary",
                             "--filters", "--kernel-size", "--review-len", "--print-plan"}) {
    EXPECT_NE(result.out.find(option), std::string::npos) << option;
  }
}

}  // namespace
