#include "cuda_graph_plan.hpp"

#include <gtest/gtest.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

std::string role_string(const CudaGraphSchedule& schedule, int steps) {
  std::string roles;
  for (int step = 0; step < steps; ++step) {
    switch (schedule.role(step)) {
      case StepRole::eager: roles += 'e'; break;
      case StepRole::measure_launched: roles += 'L'; break;
      case StepRole::measure_queued: roles += 'Q'; break;
      case StepRole::capture: roles += 'C'; break;
      case StepRole::replay: roles += 'r'; break;
    }
  }
  return roles;
}

TEST(CudaGraphPlan, AutoMeasuresPairsOfWarmupStepsAndCapturesAtTheLastOne) {
  const auto schedule = plan_cuda_graph_steps(CudaGraphMode::automatic, "", 10, 14);
  EXPECT_EQ(role_string(schedule, 14), "eLQLQLQLQCrrrr");  // timed steps 10-13 are all replays
  EXPECT_EQ(role_string(plan_cuda_graph_steps(CudaGraphMode::automatic, "", 5, 7), 7), "eLQeCrr");
  EXPECT_EQ(role_string(plan_cuda_graph_steps(CudaGraphMode::on, "", 10, 12), 12), "eeeeeeeeeCrr");
  EXPECT_EQ(role_string(plan_cuda_graph_steps(CudaGraphMode::on, "", 0, 3), 3), "eCr");  // one eager step first
  EXPECT_EQ(role_string(plan_cuda_graph_steps(CudaGraphMode::off, "", 10, 12), 12), "eeeeeeeeeeee");
}

TEST(CudaGraphPlan, SaysWhyNothingIsCaptured) {
  const auto few = plan_cuda_graph_steps(CudaGraphMode::automatic, "", 3, 20);
  EXPECT_EQ(few.capture_step, -1);
  EXPECT_EQ(decide_cuda_graphs(CudaGraphMode::automatic, few, {}).reason,
            "off: auto measures on warm-up steps and needs --warmup-steps 4 or more, this run has 3");
  const auto short_run = plan_cuda_graph_steps(CudaGraphMode::on, "", 1, 1);
  EXPECT_EQ(role_string(short_run, 1), "e");
  EXPECT_FALSE(decide_cuda_graphs(CudaGraphMode::on, short_run, {}).capture);
  WorkloadOptions options;
  options.model = "resnet";
  TrainingPlan plan;
  plan.gpu_count = 1;
  const auto resnet = plan_cuda_graph_steps(CudaGraphMode::on, cuda_graph_ineligibility(options, plan), 10, 20);
  EXPECT_EQ(role_string(resnet, 20), std::string(20, 'e'));
  EXPECT_EQ(decide_cuda_graphs(CudaGraphMode::on, resnet, {}).reason,
            "off: only the rnn model's step is captured, not resnet's");
  options.model = "rnn";
  EXPECT_EQ(cuda_graph_ineligibility(options, plan), "");
  plan.strategy = Strategy::data_parallel;
  plan.gpu_count = 2;
  EXPECT_NE(cuda_graph_ineligibility(options, plan), "");
  EXPECT_EQ(decide_cuda_graphs(CudaGraphMode::off, {}, {}).reason, "off (--cuda-graphs off)");
}

// The GRU step: 2.47 ms of kernels. Launched call by call the GPU's span is 3.3 ms, queued whole 2.5 ms:
// it idles 0.8 ms (24 %) for launches, so auto captures. A GPU-bound step (span 2.6 against 2.5: 4 %) stays eager.
TEST(CudaGraphPlan, AutoCapturesWhenTheGpuIdlesForLaunches) {
  const auto schedule = plan_cuda_graph_steps(CudaGraphMode::automatic, "", 10, 40);
  const std::vector<StepMeasurement> launch_bound = {
      {3.3e-3, 3.2e-3, 2.5e-3, true}, {3.4e-3, 3.3e-3, 2.5e-3, true}, {3.2e-3, 3.1e-3, 2.4e-3, true},
      {9.0e-3, 1.0e-3, 1.0e-3, false}};  // invalid: left out, though it would have said 89 %
  const auto on = decide_cuda_graphs(CudaGraphMode::automatic, schedule, launch_bound);
  EXPECT_TRUE(on.capture);
  EXPECT_NEAR(on.launch_idle_share, 0.8 / 3.3, 1e-9);
  EXPECT_EQ(on.reason,
            "on (auto: warm-up steps 1-8, medians of 3: the GPU spent 3.300 ms on a step launched call by call and "
            "2.500 ms on the same step queued whole, so it idled 0.800 ms (24 %) waiting for launches; the host "
            "took 3.200 ms to launch a step; graphs from 10 % idle)");
  const std::vector<StepMeasurement> gpu_bound = {{2.6e-3, 1.0e-3, 2.5e-3, true}, {2.6e-3, 1.1e-3, 2.5e-3, true}};
  const auto off = decide_cuda_graphs(CudaGraphMode::automatic, schedule, gpu_bound);
  EXPECT_FALSE(off.capture);
  EXPECT_TRUE(off.reason.starts_with("off (auto: ")) << off.reason;
  // Queued longer than launched (noise): no negative idle.
  const auto noisy = decide_cuda_graphs(CudaGraphMode::automatic, schedule, {{2.4e-3, 1.0e-3, 2.5e-3, true}});
  EXPECT_FALSE(noisy.capture);
  EXPECT_EQ(noisy.launch_idle_share, 0.0);
  const auto none = decide_cuda_graphs(CudaGraphMode::automatic, schedule, {{1e-3, 1e-3, 1e-3, false}});
  EXPECT_FALSE(none.capture);
  EXPECT_TRUE(none.reason.starts_with("off: auto could not measure")) << none.reason;
}

TEST(CudaGraphPlan, AMovedWorkspaceOrReserveMeansCaptureAgain) {
  int a = 0, b = 0, c = 0;
  const std::vector<GraphBinding> captured = {{"RNN workspace", &a, 64}, {"RNN reserve space", &b, 128}};
  EXPECT_TRUE(moved_bindings(captured, captured).empty());
  EXPECT_EQ(moved_bindings(captured, {{"RNN workspace", &a, 64}, {"RNN reserve space", &c, 128}}),
            std::vector<std::string>{"RNN reserve space"});
  EXPECT_EQ(moved_bindings(captured, {{"RNN workspace", &a, 96}, {"RNN reserve space", &b, 128}}),
            std::vector<std::string>{"RNN workspace"});
  EXPECT_EQ(moved_bindings(captured, {{"RNN workspace", &a, 64}}), std::vector<std::string>{"RNN reserve space"});
  EXPECT_EQ(moved_bindings({}, {{"inputs", &a, 4}}), std::vector<std::string>{"inputs"});
}

TEST(CudaGraphPlan, ModesAreParsed) {
  EXPECT_EQ(parse_cuda_graph_mode("auto"), CudaGraphMode::automatic);
  EXPECT_EQ(parse_cuda_graph_mode("on"), CudaGraphMode::on);
  EXPECT_EQ(parse_cuda_graph_mode("off"), CudaGraphMode::off);
  EXPECT_THROW(parse_cuda_graph_mode("yes"), WorkloadError);
}

}  // namespace
}  // namespace gpuprof::workloads
