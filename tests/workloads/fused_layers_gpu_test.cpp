// The resnet's layer glue on the GPU: the vectorised elementwise kernels and the block-
// reduction bias gradient against float64 references, measured convolutions against the
// heuristics' choice on a ResNet-sized shape, and a residual block whose batch norm fuses
// its epilogue against the same block on the legacy path and against finite differences.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "conv2d_layer.hpp"
#include "convolution_cache.hpp"
#include "device_context.hpp"
#include "flat_parameters.hpp"
#include "gpu_availability.hpp"
#include "gpu_test_helpers.hpp"
#include "layer_kernels.hpp"
#include "residual_block.hpp"

namespace gpuprof::workloads {
namespace {

using namespace gpuprof::workloads::testing;

class FusedLayersGpuTest : public ::testing::Test {
 protected:
  void SetUp() override { GPUPROF_SKIP_WITHOUT_GPU(); }
};

class GlueKernelGpuTest : public FusedLayersGpuTest, public ::testing::WithParamInterface<ElementType> {};

// Counts that are no multiple of the 16-byte pack, and pointers one element off alignment
// (the scalar path), give the same results as aligned ones (the vector path).
TEST_P(GlueKernelGpuTest, AddReluAddIntoAndReluGradientMatchReference) {
  const ElementType element = GetParam();
  const bool bf16 = element == ElementType::bf16;
  for (const long long offset : {0LL, 1LL}) {
    const long long count = 1003;
    const auto total = static_cast<std::size_t>(count + offset);
    const std::vector<float> a = exact_in(bf16, random_values(total, 51));
    const std::vector<float> b = exact_in(bf16, random_values(total, 52));
    ActivationBuffer sum = to_device_as(element, a);
    ActivationBuffer added = to_device_as(element, a);
    const ActivationBuffer source = to_device_as(element, b);
    ActivationBuffer gradient(element, total, "gradient");
    const std::size_t bytes = offset * element_bytes(element);
    auto at = [&](auto& buffer) { return static_cast<std::byte*>(const_cast<void*>(buffer.data())) + bytes; };
    launch_add_relu(element, at(sum), at(source), count, nullptr);
    launch_add_into(element, at(added), at(source), count, nullptr);
    // The ReLU's gradient from its output (sum) and an upstream gradient (b), out of place.
    launch_activation_backward(element, ActivationKind::relu, at(sum), at(source), at(gradient), count, nullptr);
    const std::vector<float> got_sum = to_host_floats(sum);
    const std::vector<float> got_added = to_host_floats(added);
    const std::vector<float> got_gradient = to_host_floats(gradient);
    for (std::size_t i = static_cast<std::size_t>(offset); i < total; ++i) {
      const double exact = double(a[i]) + b[i];
      const double relu = std::max(exact, 0.0);
      const double tolerance = bf16 ? 8e-3 * (1.0 + std::fabs(exact)) : 1e-6;
      EXPECT_NEAR(got_sum[i], relu, tolerance) << "add_relu " << i;
      EXPECT_NEAR(got_added[i], exact, tolerance) << "add_into " << i;
      EXPECT_EQ(got_gradient[i], got_sum[i] > 0.0F ? b[i] : 0.0F) << "relu gradient " << i;
    }
    if (offset == 1) {
      EXPECT_EQ(got_sum[0], a[0]) << "the element before the range is untouched";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Elements, GlueKernelGpuTest, ::testing::Values(ElementType::fp32, ElementType::bf16),
                         [](const auto& instance) { return instance.param == ElementType::bf16 ? "bf16" : "fp32"; });

// The towers' convolution shape (batch 64 x 94 positions rows, 100 filters) and a narrow one.
TEST_F(FusedLayersGpuTest, BiasGradientAddsColumnSumsOfManyRows) {
  for (const auto& [rows, columns] : {std::pair{6016, 100}, std::pair{3, 1}, std::pair{0, 40}}) {
    const std::vector<float> gradient = random_values(static_cast<std::size_t>(rows) * columns + 1, 61);
    const std::vector<float> start = random_values(static_cast<std::size_t>(columns), 62);
    auto device_gradient = to_device(gradient);
    auto bias = to_device(start);
    launch_accumulate_bias_gradient(device_gradient.data(), bias.data(), rows, columns, nullptr);
    std::vector<double> expected(start.begin(), start.end());
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < columns; ++c) expected[c] += gradient[static_cast<std::size_t>(r) * columns + c];
    }
    expect_close(to_host(bias.data(), bias.size()), expected, 1e-5, "bias gradient");
  }
}

// On a ResNet stage-1 shape the measured choice must compute the same convolution as the
// heuristics' choice; a second layer of the same shape reuses the measurement.
TEST_F(FusedLayersGpuTest, MeasuredAlgorithmsComputeWhatTheHeuristicsCompute) {
  for (const Precision precision : {Precision::fp32, Precision::tf32, Precision::bf16}) {
    DeviceContext context(0, precision);
    const ElementType element = precision == Precision::bf16 ? ElementType::bf16 : ElementType::fp32;
    const ImageShape in{8, 14, 14, 64, precision != Precision::fp32, element};
    const std::size_t before = convolution_cache().size();
    Conv2dLayer measured(context, Conv2dConfig{in, 64, 3, 1, 1, ConvolutionSearch::measured});
    const std::size_t after = convolution_cache().size();
    Conv2dLayer again(context, Conv2dConfig{in, 64, 3, 1, 1, ConvolutionSearch::measured});
    EXPECT_EQ(convolution_cache().size(), after) << "a second layer of one shape is not timed again";
    EXPECT_LE(after, before + 1);
    Conv2dLayer heuristic(context, Conv2dConfig{in, 64, 3, 1, 1, ConvolutionSearch::heuristic});
    const bool bf16 = element == ElementType::bf16;
    const std::vector<float> w = exact_in(bf16, random_values(measured.parameter_count(), 71));
    const std::vector<float> x = exact_in(bf16, random_values(static_cast<std::size_t>(in.elements()), 72));
    auto device_w = to_device(w);
    ActivationBuffer w_bf16 = to_device_as(ElementType::bf16, w);
    const ActivationBuffer device_x = to_device_as(element, x);
    DeviceArray<float> dw(w.size(), "dw");
    ActivationBuffer dw_bf16(ElementType::bf16, w.size(), "dw bf16");
    const std::size_t bytes = std::max(measured.workspace_bytes(), heuristic.workspace_bytes());
    DeviceArray<float> workspace_array(bytes / sizeof(float) + 1, "workspace");
    const ConvolutionWorkspace workspace{workspace_array.data(), workspace_array.size() * sizeof(float)};
    std::vector<std::vector<float>> outputs;
    for (Conv2dLayer* layer : {&measured, &heuristic}) {
      layer->bind({device_w.data(), dw.data(), w.size(), w_bf16.data(), dw_bf16.data()});
      ActivationBuffer y(element, static_cast<std::size_t>(layer->output_shape().elements()), "y");
      layer->forward(context, device_x.data(), y.data(), workspace);
      outputs.push_back(to_host_floats(y));
    }
    const double tolerance = precision == Precision::fp32 ? 1e-4 : 2e-2;
    std::vector<double> reference(outputs[1].begin(), outputs[1].end());
    expect_close(outputs[0], reference, tolerance, "measured against heuristic convolution");
  }
}

// A basic block with a projection shortcut (stride 2) and one with an identity shortcut.
struct BlockCase {
  Precision precision = Precision::fp32;
  int stride = 1;
};

class ResidualBlockGpuTest : public FusedLayersGpuTest, public ::testing::WithParamInterface<BlockCase> {};

struct BlockRun {
  std::vector<float> output;
  std::vector<float> input_gradient;
  std::vector<float> parameter_gradients;
};

// One training forward and backward of a fresh block on the given path, from the same
// parameters, input and output gradient.
BlockRun run_block(const DeviceContext& context, const ResidualBlockConfig& config, const std::vector<float>& x,
                   const std::vector<float>& dy, std::uint64_t seed) {
  ResidualBlock block(context, config, "block");
  std::vector<ParameterOwner> owners;
  block.add_owners(owners);
  ParameterLayout layout;
  for (const auto& owner : owners) layout.add(owner.name, owner.count);
  const bool bf16 = config.input.element == ElementType::bf16;
  FlatParameters parameters(layout, bf16);
  std::vector<float> values(layout.total(), 0.0F);
  for (std::size_t i = 0; i < owners.size(); ++i) {
    DeterministicRandom random(seed + i);
    const auto& entry = layout.entry(i);
    owners[i].initialize(std::span<float>(values.data() + entry.offset, entry.count), random);
    owners[i].bind(parameters.slice(entry));
  }
  GPUPROF_CHECK(cudaMemcpy(parameters.values(), values.data(), values.size() * sizeof(float),
                           cudaMemcpyHostToDevice));
  refresh_bf16_copy(parameters.group(context));
  block.reset_statistics(context);
  const ElementType element = config.input.element;
  const ActivationBuffer input = to_device_as(element, x);
  ActivationBuffer output_gradient = to_device_as(element, dy);
  ActivationBuffer input_gradient(element, x.size(), "dx");
  const std::size_t largest = static_cast<std::size_t>(std::max(block.largest_activation(), config.input.elements()));
  ActivationBuffer first(element, largest, "scratch"), second(element, largest, "scratch"), norm(element, largest, "scratch");
  DeviceArray<float> workspace_array(block.workspace_bytes() / sizeof(float) + 1, "workspace");
  const ConvolutionWorkspace workspace{workspace_array.data(), workspace_array.size() * sizeof(float)};
  block.forward(context, input.data(), true, workspace);
  ActivationBuffer output(element, dy.size(), "output copy");
  GPUPROF_CHECK(cudaMemcpyAsync(output.data(), block.output(), output.bytes(), cudaMemcpyDeviceToDevice,
                                context.compute_stream()));
  block.backward(context, input.data(), output_gradient.data(), input_gradient.data(),
                 GradientScratch{first.data(), second.data(), norm.data()}, workspace);
  return BlockRun{to_host_floats(output), to_host_floats(input_gradient),
                  to_host(parameters.gradients(), layout.total())};
}

TEST_P(ResidualBlockGpuTest, FusedEpiloguesMatchTheLegacyPath) {
  const BlockCase c = GetParam();
  const DeviceContext context(0, c.precision);
  const bool bf16 = c.precision == Precision::bf16;
  const ElementType element = context.activation_type();
  const ImageShape in{4, 8, 8, 16, c.precision != Precision::fp32, element};
  ResidualBlockConfig config{in, c.stride == 1 ? 16 : 32, c.stride, false, {}};
  const int out_side = in.height / c.stride;
  const auto out_elements = static_cast<std::size_t>(in.batch) * out_side * out_side * config.width;
  const std::vector<float> x = exact_in(bf16, random_values(static_cast<std::size_t>(in.elements()), 81));
  const std::vector<float> dy = exact_in(bf16, random_values(out_elements, 82));
  config.choices = LayerChoices{ConvolutionSearch::heuristic, BatchNormImplementation::legacy};
  const BlockRun legacy = run_block(context, config, x, dy, 90);
  config.choices = LayerChoices{ConvolutionSearch::measured, BatchNormImplementation::fused};
  const BlockRun fused = run_block(context, config, x, dy, 90);
  // Wiring faults (a gradient lost, doubled or sent to the wrong input) give errors of order 1. bf16
  // rounds at different points on the two paths (the fused epilogue rounds once), and the batch-norm
  // gradients' sums of 256 products carry that; tf32 convolutions differ by algorithm.
  const double tolerance = c.precision == Precision::fp32 ? 1e-4 : (bf16 ? 1e-1 : 3e-2);
  const auto as_double = [](const std::vector<float>& v) { return std::vector<double>(v.begin(), v.end()); };
  expect_close(fused.output, as_double(legacy.output), tolerance, "block output");
  expect_close(fused.input_gradient, as_double(legacy.input_gradient), tolerance, "block input gradient");
  expect_close(fused.parameter_gradients, as_double(legacy.parameter_gradients), tolerance,
               "block parameter gradients");
}

INSTANTIATE_TEST_SUITE_P(PrecisionsAndShortcuts, ResidualBlockGpuTest,
                         ::testing::Values(BlockCase{Precision::fp32, 1}, BlockCase{Precision::fp32, 2},
                                           BlockCase{Precision::tf32, 2}, BlockCase{Precision::bf16, 1},
                                           BlockCase{Precision::bf16, 2}),
                         [](const auto& instance) {
                           const Precision p = instance.param.precision;
                           return std::string(p == Precision::fp32 ? "fp32" : p == Precision::tf32 ? "tf32" : "bf16") +
                                  (instance.param.stride == 1 ? "_identity" : "_projection");
                         });

// The rewired backward (dz written into dL/dinput, the first convolution adding to it) against
// central differences of the block's own training forward, in fp32 NCHW.
TEST_F(FusedLayersGpuTest, ResidualBlockInputGradientMatchesDifferences) {
  const DeviceContext context(0, Precision::fp32);
  for (const int stride : {1, 2}) {
    const ImageShape in{2, 6, 6, 8, false, ElementType::fp32};
    ResidualBlockConfig config{in, stride == 1 ? 8 : 16, stride, false, {}};
    std::vector<float> x = random_values(static_cast<std::size_t>(in.elements()), 91);
    const int side = in.height / stride;
    const std::vector<float> dy =
        random_values(static_cast<std::size_t>(in.batch) * side * side * config.width, 92);
    const BlockRun run = run_block(context, config, x, dy, 95);
    const auto loss = [&]() {
      const BlockRun perturbed = run_block(context, config, x, dy, 95);
      double sum = 0.0;
      for (std::size_t i = 0; i < dy.size(); ++i) sum += double(perturbed.output[i]) * dy[i];
      return sum;
    };
    expect_gradient_matches_differences(x, run.input_gradient, loss, spread_indices(x.size(), 12), 1e-2, 2e-2,
                                        stride == 1 ? "identity block input" : "projection block input");
  }
}

}  // namespace
}  // namespace gpuprof::workloads
