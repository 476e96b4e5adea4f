#include "host_optimizer.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

TEST(HostOptimizer, SgdMomentumMatchesHandComputedSteps) {
  HostOptimizer optimizer(make_optimizer_config("sgd", 0.1, 0.9), 2);
  std::vector<float> parameters = {1.0F, -2.0F};
  const std::vector<float> gradients = {0.5F, -1.0F};
  optimizer.step(parameters, gradients);
  // velocity 0.5 -> 1 - 0.1 * 0.5; velocity -1 -> -2 + 0.1
  EXPECT_NEAR(parameters[0], 0.95F, 1e-6F);
  EXPECT_NEAR(parameters[1], -1.9F, 1e-6F);
  optimizer.step(parameters, gradients);
  // velocity 0.9 * 0.5 + 0.5 = 0.95 -> 0.95 - 0.095
  EXPECT_NEAR(parameters[0], 0.855F, 1e-6F);
  EXPECT_NEAR(parameters[1], -1.71F, 1e-6F);
  EXPECT_EQ(optimizer.steps_taken(), 2);
}

TEST(HostOptimizer, AdamMatchesHandComputedSteps) {
  HostOptimizer optimizer(make_optimizer_config("adam", 0.1, 0.0), 1);
  std::vector<float> parameters = {1.0F};
  optimizer.step(parameters, std::vector<float>{0.5F});
  // First step: bias-corrected m / sqrt(v) = g / |g| = 1, so the step is the learning rate.
  EXPECT_NEAR(parameters[0], 0.9F, 1e-6F);
  optimizer.step(parameters, std::vector<float>{0.25F});
  // m = 0.07, v = 0.00031225; corrected 0.07/0.19 and 0.00031225/0.001999
  EXPECT_NEAR(parameters[0], 0.80678204F, 2e-6F);
}

TEST(HostOptimizer, RefusesMismatchedSizes) {
  HostOptimizer optimizer(make_optimizer_config("sgd", 0.1, 0.9), 3);
  std::vector<float> parameters(3);
  const std::vector<float> gradients(2);
  EXPECT_THROW(optimizer.step(parameters, gradients), WorkloadError);
  EXPECT_THROW(make_optimizer_config("lamb", 0.1, 0.9), WorkloadError);
}

}  // namespace
}  // namespace gpuprof::workloads
