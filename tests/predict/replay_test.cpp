#include <gtest/gtest.h>

#include "gpuprof/predict/replay.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "synthetic_gpus_trace.hpp"

namespace gpuprof::predict {
namespace {

trace::TraceModel synthetic_model(const gpuprof::testing::TemporaryFolder& folder, std::int32_t devices) {
  return gpuprof::testing::synthetic_steps_model(folder, devices);
}

TEST(Replay, TheUnchangedReplayReproducesTheMeasuredSteps) {
  gpuprof::testing::TemporaryFolder folder;
  const auto model = synthetic_model(folder, 1);
  const auto graph = build_replay_graph(model, {});
  ASSERT_FALSE(graph.ops.empty());
  EXPECT_TRUE(graph.backward_from_ranges);  // synth names its backward ranges
  const auto measured = steady_step_period(graph, recorded_times(graph));
  const auto replayed = steady_step_period(graph, replay(graph));
  EXPECT_EQ(measured.steps, 10);
  EXPECT_NEAR(replayed.mean_ns / measured.mean_ns, 1.0, 0.01);
}

TEST(Replay, ShorterWorkShortensTheStepButNotBelowTheHostsPace) {
  gpuprof::testing::TemporaryFolder folder;
  const auto model = synthetic_model(folder, 1);
  auto graph = build_replay_graph(model, {});
  const auto measured = steady_step_period(graph, recorded_times(graph)).mean_ns;
  for (auto& op : graph.ops) op.duration_ns *= 0.5;
  const auto faster = steady_step_period(graph, replay(graph)).mean_ns;
  EXPECT_LT(faster, 0.95 * measured);
  // The host loads each batch (300 us) and launches 40 kernels: the step cannot halve.
  EXPECT_GT(faster, 0.5 * measured);
  for (auto& op : graph.ops) op.duration_ns = 0;
  EXPECT_GT(steady_step_period(graph, replay(graph)).mean_ns, 200'000.0);
}

TEST(Replay, AnInsertedWaitDelaysWhatDependsOnIt) {
  gpuprof::testing::TemporaryFolder folder;
  const auto model = synthetic_model(folder, 1);
  auto graph = build_replay_graph(model, {});
  const auto measured = steady_step_period(graph, recorded_times(graph)).mean_ns;
  // A 1 ms piece of work on its own stream after the first op of every window, which the next op waits for.
  std::vector<std::int32_t> firsts(graph.windows.size(), kNone);
  for (std::size_t o = 0; o < graph.ops.size(); ++o)
    if (graph.ops[o].window != kNone && firsts[graph.ops[o].window] == kNone)
      firsts[graph.ops[o].window] = static_cast<std::int32_t>(o);
  const auto stream = graph.add_stream();
  for (const auto first : firsts) {
    ReplayOp wait;
    wait.kind = OpKind::inserted;
    wait.stream = stream;
    wait.start_ns = wait.end_ns = graph.ops[first].end_ns;
    wait.duration_ns = 1e6;
    wait.inputs = {first};
    wait.window = graph.ops[first].window;
    graph.ops.push_back(wait);
    graph.ops[first + 1].inputs.push_back(static_cast<std::int32_t>(graph.ops.size() - 1));
  }
  const auto slower = steady_step_period(graph, replay(graph)).mean_ns;
  EXPECT_GT(slower, measured + 0.5e6);
}

TEST(Replay, RefusesTracesWithoutStepsOrWithoutGpuWork) {
  gpuprof::testing::TemporaryFolder folder;
  const auto model = synthetic_model(folder, 1);
  analysis::AnalysisOptions options;
  options.step_pattern = "^no such step$";
  EXPECT_THROW(build_replay_graph(model, options), TraceError);
  trace::TraceModel empty;
  empty.path = "empty.sqlite";
  EXPECT_THROW(build_replay_graph(empty, {}), TraceError);
}

}  // namespace
}  // namespace gpuprof::predict
