// --conv-algo graph on the GPU: each pass (forward, data gradient written and added, filter
// gradient) through cuDNN graph API plans computes what the heuristics' legacy algorithms
// compute, in fp32, tf32 and bf16; a second layer of one shape is not timed again.
#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include "conv2d_layer.hpp"
#include "device_context.hpp"
#include "gpu_availability.hpp"
#include "gpu_test_helpers.hpp"
#include "graph_engine_choice.hpp"

namespace gpuprof::workloads {
namespace {

using namespace gpuprof::workloads::testing;

class ConvolutionGraphGpuTest : public ::testing::TestWithParam<Precision> {
 protected:
  void SetUp() override { GPUPROF_SKIP_WITHOUT_GPU(); }
};

struct PassResults {
  std::vector<float> output;
  std::vector<float> input_gradient;
  std::vector<float> filter_gradient;
};

TEST_P(ConvolutionGraphGpuTest, GraphPlansComputeWhatTheHeuristicsCompute) {
  const Precision precision = GetParam();
  DeviceContext context(0, precision);
  const ElementType element = precision == Precision::bf16 ? ElementType::bf16 : ElementType::fp32;
  const bool bf16 = element == ElementType::bf16;
  // A ResNet stage transition: 3x3, stride 2, 64 to 128 channels.
  const ImageShape in{8, 14, 14, 64, precision != Precision::fp32, element};
  const Conv2dConfig graph_config{in, 128, 3, 2, 1, ConvolutionSearch::graph};
  Conv2dLayer graph(context, graph_config);
  ASSERT_TRUE(graph.runs_graph_plans()) << "cuDNN's graph API refused the shape (see the run's note)";
  const std::size_t timed = graph_plan_cache().size();
  Conv2dLayer again(context, graph_config);
  EXPECT_TRUE(again.runs_graph_plans());
  EXPECT_EQ(graph_plan_cache().size(), timed) << "a second layer of one shape is not timed again";
  Conv2dConfig heuristic_config = graph_config;
  heuristic_config.search = ConvolutionSearch::heuristic;
  Conv2dLayer heuristic(context, heuristic_config);

  const std::vector<float> w = exact_in(bf16, random_values(graph.parameter_count(), 81));
  const std::vector<float> x = exact_in(bf16, random_values(static_cast<std::size_t>(in.elements()), 82));
  const auto output_count = static_cast<std::size_t>(graph.output_shape().elements());
  const std::vector<float> dy = exact_in(bf16, random_values(output_count, 83));
  const std::vector<float> dx_start = exact_in(bf16, random_values(x.size(), 84));
  auto device_w = to_device(w);
  ActivationBuffer w_bf16 = to_device_as(ElementType::bf16, w);
  const ActivationBuffer device_x = to_device_as(element, x);
  const ActivationBuffer device_dy = to_device_as(element, dy);
  const std::size_t bytes = std::max(graph.workspace_bytes(), heuristic.workspace_bytes());
  DeviceArray<float> workspace_array(bytes / sizeof(float) + 1, "workspace");
  const ConvolutionWorkspace workspace{workspace_array.data(), workspace_array.size() * sizeof(float)};
  std::vector<PassResults> results;
  for (Conv2dLayer* layer : {&graph, &heuristic}) {
    DeviceArray<float> dw(w.size(), "dw");
    ActivationBuffer dw_bf16(ElementType::bf16, w.size(), "dw bf16");
    layer->bind({device_w.data(), dw.data(), w.size(), w_bf16.data(), dw_bf16.data()});
    ActivationBuffer y(element, output_count, "y");
    ActivationBuffer dx = to_device_as(element, dx_start);  // added into: the residual blocks' case
    layer->forward(context, device_x.data(), y.data(), workspace);
    layer->backward(context, device_x.data(), device_dy.data(), dx.data(), true, workspace);
    GPUPROF_CHECK(cudaDeviceSynchronize());
    results.push_back({to_host_floats(y), to_host_floats(dx), to_host(dw.data(), dw.size())});
  }
  const double tolerance = precision == Precision::fp32 ? 1e-4 : 2e-2;
  const auto reference = [](const std::vector<float>& values) { return std::vector<double>(values.begin(), values.end()); };
  expect_close(results[0].output, reference(results[1].output), tolerance, "forward");
  expect_close(results[0].input_gradient, reference(results[1].input_gradient), tolerance, "data gradient, added");
  // Filter gradients sum over 8 x 7 x 7 positions: a looser bound for the reduced precisions.
  expect_close(results[0].filter_gradient, reference(results[1].filter_gradient),
               precision == Precision::fp32 ? 1e-4 : 5e-2, "filter gradient");
}

INSTANTIATE_TEST_SUITE_P(Precisions, ConvolutionGraphGpuTest,
                         ::testing::Values(Precision::fp32, Precision::tf32, Precision::bf16),
                         [](const auto& instance) {
                           return instance.param == Precision::fp32   ? std::string("fp32")
                                  : instance.param == Precision::tf32 ? std::string("tf32")
                                                                      : std::string("bf16");
                         });

}  // namespace
}  // namespace gpuprof::workloads
