// A tiny real sweep: the rnn workload at two batch sizes on one GPU, a few steps.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

bool have_gpu() { return std::filesystem::exists("/dev/nvidia0"); }

TEST(SweepGpu, TwoBatchSizesOnOneGpu) {
  const std::string workload = GPUPROF_WORKLOAD_BINARY;
  if (workload.empty()) GTEST_SKIP() << "gpuprof-workload is not built (GPUPROF_BUILD_WORKLOADS=OFF)";
  if (!have_gpu()) GTEST_SKIP() << "no GPU on this machine";
  TemporaryFolder folder;
  ::setenv("GPUPROF_WORKLOAD", workload.c_str(), 1);
  const auto study = folder.file("study");
  const auto sweep = run_process({GPUPROF_BINARY, "sweep", "--workload", "rnn", "--batch", "64,128", "--gpus", "1",
                                  "--steps", "20", "--calibrate", "-o", study});
  ASSERT_EQ(sweep.exit_code, 0) << sweep.err;
  EXPECT_NE(sweep.err.find("sweep done: 4 ok, 0 failed"), std::string::npos) << sweep.err;
  const auto report = run_process({GPUPROF_BINARY, "study", study, "--format", "json"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("\"computation_ns\""), std::string::npos) << report.out;
  EXPECT_NE(report.out.find("\"overhead\": "), std::string::npos);
}

}  // namespace
}  // namespace gpuprof::testing
