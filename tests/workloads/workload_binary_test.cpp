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

TEST(WorkloadBinary, Bf16IsRefusedClearly) {
  const auto result = run_process({GPUPROF_WORKLOAD_BINARY, "rnn", "--precision", "bf16"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("bf16 is not implemented"), std::string::npos) << result.err;
}

TEST(WorkloadBinary, UnknownModelIsAUsageError) {
  const auto result = run_process({GPUPROF_WORKLOAD_BINARY, "resnet"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("resnet"), std::string::npos) << result.err;
}

TEST(WorkloadBinary, HelpListsTheOptions) {
  const auto result = run_process({GPUPROF_WORKLOAD_BINARY, "--help"});
  EXPECT_EQ(result.exit_code, 0);
  for (const char* option : {"--cell", "--prefetch", "--host-memory", "--strategy", "--gpus", "--summary"}) {
    EXPECT_NE(result.out.find(option), std::string::npos) << option;
  }
}

}  // namespace
