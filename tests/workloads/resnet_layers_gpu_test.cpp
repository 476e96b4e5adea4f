// The resnet model's cuDNN layers against float64 CPU references (channels-last), and
// convolution gradients against finite differences; then the whole model learns.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "batch_norm_layer.hpp"
#include "conv2d_layer.hpp"
#include "cuda_check.hpp"
#include "device_context.hpp"
#include "gpu_availability.hpp"
#include "gpu_test_helpers.hpp"
#include "pooling_layer.hpp"
#include "resnet_model.hpp"
#include "trainer.hpp"
#include "training_plan.hpp"

namespace gpuprof::workloads {
namespace {

using namespace gpuprof::workloads::testing;

class ResnetLayerGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GPUPROF_SKIP_WITHOUT_GPU();
    context_ = std::make_unique<DeviceContext>(0, Precision::fp32);
  }
  cudaStream_t stream() const { return context_->compute_stream(); }
  std::unique_ptr<DeviceContext> context_;
};

std::size_t at(const ImageShape& s, int n, int y, int x, int c) {
  if (!s.channels_last) return ((static_cast<std::size_t>(n) * s.channels + c) * s.height + y) * s.width + x;
  return ((static_cast<std::size_t>(n) * s.height + y) * s.width + x) * s.channels + c;
}

// Filter index of (output k, row r, column s, input c) for a 3x3 kernel.
std::size_t filter_at(bool channels_last, int inputs, int k, int r, int s, int c) {
  if (!channels_last) return ((static_cast<std::size_t>(k) * inputs + c) * 3 + r) * 3 + s;
  return ((static_cast<std::size_t>(k) * 3 + r) * 3 + s) * inputs + c;
}

struct ConvolutionCase {
  bool channels_last = true;
  Precision precision = Precision::fp32;
  ConvolutionSearch search = ConvolutionSearch::measured;
};

class Conv2dGpuTest : public ResnetLayerGpuTest, public ::testing::WithParamInterface<ConvolutionCase> {};

// Both algorithm searches (measured: cuDNN's find; heuristic: the _v7 heuristics).
// fp32 is checked to 1e-5 and by finite differences. bf16 (bf16 activations and filter
// copy, fp32 accumulation) starts from numbers bf16 holds exactly and is checked against
// the float64 reference to bf16's rounding of the results.
TEST_P(Conv2dGpuTest, MatchesReferenceAndDifferences) {
  const bool bf16 = GetParam().precision == Precision::bf16;
  context_ = std::make_unique<DeviceContext>(0, GetParam().precision);
  const ElementType element = bf16 ? ElementType::bf16 : ElementType::fp32;
  const ImageShape in{2, 5, 5, 3, GetParam().channels_last, element};
  const Conv2dConfig config{in, 4, 3, 2, 1, GetParam().search};
  Conv2dLayer layer(*context_, config);
  const ImageShape out = layer.output_shape();
  ASSERT_EQ(out.height, 3);
  std::vector<float> w = exact_in(bf16, random_values(layer.parameter_count(), 21));
  const std::vector<float> x = exact_in(bf16, random_values(static_cast<std::size_t>(in.elements()), 22));
  const std::vector<float> dy = exact_in(bf16, random_values(static_cast<std::size_t>(out.elements()), 23));
  auto device_w = to_device(w);
  ActivationBuffer device_w_bf16 = to_device_as(ElementType::bf16, w);
  ActivationBuffer dw_bf16(ElementType::bf16, w.size(), "dw bf16");
  // The layer writes its filter gradient (beta 0): start from other numbers to see it overwrite them.
  auto dw = to_device(std::vector<float>(w.size(), 7.0F));
  const ActivationBuffer device_x = to_device_as(element, x);
  const ActivationBuffer device_dy = to_device_as(element, dy);
  ActivationBuffer y(element, dy.size(), "y");
  ActivationBuffer dx(element, x.size(), "dx");
  DeviceArray<float> workspace_array(layer.workspace_bytes() / sizeof(float) + 1, "workspace");
  const ConvolutionWorkspace workspace{workspace_array.data(), workspace_array.size() * sizeof(float)};
  layer.bind({device_w.data(), dw.data(), w.size(), device_w_bf16.data(), dw_bf16.data()});
  layer.forward(*context_, device_x.data(), y.data(), workspace);
  layer.backward(*context_, device_x.data(), device_dy.data(), dx.data(), false, workspace);

  std::vector<double> expected(dy.size(), 0.0);
  std::vector<double> expected_dx(x.size(), 0.0);
  std::vector<double> expected_dw(w.size(), 0.0);
  for (int n = 0; n < in.batch; ++n) {
    for (int oy = 0; oy < out.height; ++oy) {
      for (int ox = 0; ox < out.width; ++ox) {
        for (int k = 0; k < out.channels; ++k) {
          double sum = 0.0;
          for (int r = 0; r < 3; ++r) {
            for (int s = 0; s < 3; ++s) {
              const int iy = oy * 2 - 1 + r, ix = ox * 2 - 1 + s;
              if (iy < 0 || ix < 0 || iy >= in.height || ix >= in.width) continue;
              for (int c = 0; c < in.channels; ++c) {
                const std::size_t f = filter_at(in.channels_last, in.channels, k, r, s, c);
                sum += double(w[f]) * x[at(in, n, iy, ix, c)];
                expected_dx[at(in, n, iy, ix, c)] += double(w[f]) * dy[at(out, n, oy, ox, k)];
                expected_dw[f] += double(x[at(in, n, iy, ix, c)]) * dy[at(out, n, oy, ox, k)];
              }
            }
          }
          expected[at(out, n, oy, ox, k)] = sum;
        }
      }
    }
  }
  const double tolerance = bf16 ? 1e-2 : 1e-5;
  expect_close(to_host_floats(y), expected, tolerance, "conv2d output");
  expect_close(to_host_floats(dx), expected_dx, tolerance, "conv2d input gradient");
  const std::vector<float> analytic = to_host(dw.data(), w.size());
  expect_close(analytic, expected_dw, bf16 ? 1e-2 : 1e-4, "conv2d filter gradient (overwritten)");
  if (bf16) return;  // perturbed filters are no longer bf16 numbers
  const std::vector<float>& analytic_only = analytic;
  auto loss = [&]() {
    GPUPROF_CHECK(cudaMemcpy(device_w.data(), w.data(), w.size() * sizeof(float), cudaMemcpyHostToDevice));
    layer.forward(*context_, device_x.data(), y.data(), workspace);
    const std::vector<float> values = to_host_floats(y);
    double sum = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) sum += double(values[i]) * dy[i];
    return sum;
  };
  expect_gradient_matches_differences(w, analytic_only, loss, spread_indices(w.size(), 16), 1e-2, 2e-3,
                                      "conv2d filters");
}

INSTANTIATE_TEST_SUITE_P(LayoutsAndPrecisions, Conv2dGpuTest,
                         ::testing::Values(ConvolutionCase{true, Precision::fp32},
                                           ConvolutionCase{false, Precision::fp32},
                                           ConvolutionCase{true, Precision::bf16},
                                           ConvolutionCase{false, Precision::fp32, ConvolutionSearch::heuristic},
                                           ConvolutionCase{true, Precision::bf16, ConvolutionSearch::heuristic}),
                         [](const auto& instance) {
                           return std::string(instance.param.channels_last ? "nhwc" : "nchw") +
                                  (instance.param.precision == Precision::bf16 ? "_bf16_" : "_fp32_") +
                                  name_of(instance.param.search);
                         });

struct BatchNormCase {
  ElementType element = ElementType::fp32;
  bool channels_last = true;
  BatchNormImplementation implementation = BatchNormImplementation::fused;
  BatchNormEpilogue epilogue = BatchNormEpilogue::none;
};

class BatchNormGpuTest : public ResnetLayerGpuTest, public ::testing::WithParamInterface<BatchNormCase> {};

// y = epilogue(BN(x) [+ z]) and its gradients against float64, on every path the layer may
// take (the path cuDNN accepted is printed). bf16 activations keep fp32 scale, shift and
// statistics, as in bf16 training. Gradients start from other numbers: they are overwritten.
TEST_P(BatchNormGpuTest, TrainingMatchesReference) {
  const BatchNormCase c = GetParam();
  const bool bf16 = c.element == ElementType::bf16;
  const ImageShape shape{4, 3, 3, 8, c.channels_last, c.element};
  const int channels = shape.channels;
  BatchNormLayer layer(channels, c.implementation, c.epilogue);
  layer.prepare(*context_, shape);
  std::vector<float> parameters(2 * static_cast<std::size_t>(channels));
  for (int c2 = 0; c2 < channels; ++c2) {
    parameters[static_cast<std::size_t>(c2)] = 0.5F + 0.25F * static_cast<float>(c2);      // scale
    parameters[static_cast<std::size_t>(channels + c2)] = -0.1F * static_cast<float>(c2);  // shift
  }
  const std::vector<float> x = exact_in(bf16, random_values(static_cast<std::size_t>(shape.elements()), 31));
  const std::vector<float> z = exact_in(bf16, random_values(x.size(), 33));
  const std::vector<float> dy = exact_in(bf16, random_values(x.size(), 32));
  auto device_parameters = to_device(parameters);
  auto gradients = to_device(std::vector<float>(parameters.size(), 5.0F));
  layer.bind({device_parameters.data(), gradients.data(), parameters.size()});
  layer.reset_statistics(*context_);
  const ActivationBuffer device_x = to_device_as(c.element, x);
  const ActivationBuffer device_z = to_device_as(c.element, z);
  ActivationBuffer device_dy = to_device_as(c.element, dy);
  ActivationBuffer y(c.element, x.size(), "y");
  ActivationBuffer dx(c.element, x.size(), "dx");
  ActivationBuffer dz(c.element, x.size(), "dz");
  const bool adds = c.epilogue == BatchNormEpilogue::add_relu;
  layer.forward(*context_, device_x.data(), adds ? device_z.data() : nullptr, y.data(), true);
  layer.backward(*context_, device_x.data(), y.data(), device_dy.data(), dx.data(), adds ? dz.data() : nullptr);
  std::printf("batch norm path taken: %s\n", describe(layer.path()).c_str());

  // Channel of element i in either layout.
  const auto channel_of = [&](std::size_t i) {
    return c.channels_last ? static_cast<int>(i % channels)
                           : static_cast<int>((i / (shape.height * shape.width)) % channels);
  };
  const auto m = static_cast<double>(shape.batch * shape.height * shape.width);
  std::vector<double> mean(channels, 0.0), variance(channels, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) mean[channel_of(i)] += x[i] / m;
  for (std::size_t i = 0; i < x.size(); ++i) variance[channel_of(i)] += (x[i] - mean[channel_of(i)]) * (x[i] - mean[channel_of(i)]) / m;
  std::vector<double> expected_y(x.size()), g(x.size()), expected_dx(x.size()), expected_dz(x.size());
  std::vector<double> sum_g(channels, 0.0), sum_g_xhat(channels, 0.0), expected_gradients(parameters.size());
  const auto xhat = [&](std::size_t i) { return (x[i] - mean[channel_of(i)]) / std::sqrt(variance[channel_of(i)] + 1e-5); };
  for (std::size_t i = 0; i < x.size(); ++i) {
    const int k = channel_of(i);
    const double normalised = parameters[k] * xhat(i) + parameters[channels + k];
    const double added = adds ? normalised + z[i] : normalised;
    expected_y[i] = c.epilogue == BatchNormEpilogue::none ? added : std::max(added, 0.0);
    g[i] = c.epilogue == BatchNormEpilogue::none || added > 0.0 ? dy[i] : 0.0;
    expected_dz[i] = g[i];
    sum_g[k] += g[i];
    sum_g_xhat[k] += g[i] * xhat(i);
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    const int k = channel_of(i);
    const double inverse = 1.0 / std::sqrt(variance[k] + 1e-5);
    expected_dx[i] = parameters[k] * inverse / m * (m * g[i] - sum_g[k] - xhat(i) * sum_g_xhat[k]);
  }
  for (int k = 0; k < channels; ++k) {
    expected_gradients[k] = sum_g_xhat[k];
    expected_gradients[channels + k] = sum_g[k];
  }
  std::vector<double> expected_running_mean(mean.size());
  for (int k = 0; k < channels; ++k) expected_running_mean[k] = 0.1 * mean[k];
  // bf16 rounds y and dx once (relative 2^-9); the fp32 sums behind them are exact enough.
  const double tolerance = bf16 ? 1e-2 : 1e-4;
  expect_close(to_host_floats(y), expected_y, tolerance, "batch norm output");
  expect_close(to_host_floats(dx), expected_dx, bf16 ? 2e-2 : 1e-4, "batch norm input gradient");
  if (adds) expect_close(to_host_floats(dz), expected_dz, tolerance, "residual gradient");
  expect_close(to_host(gradients.data(), parameters.size()), expected_gradients, bf16 ? 1e-2 : 1e-4,
               "batch norm parameters (overwritten)");
  expect_close(to_host(layer.running_mean(), static_cast<std::size_t>(channels)), expected_running_mean, 1e-5,
               "running mean");
}

std::vector<BatchNormCase> batch_norm_cases() {
  std::vector<BatchNormCase> cases;
  for (const auto implementation : {BatchNormImplementation::legacy, BatchNormImplementation::fused}) {
    for (const auto epilogue : {BatchNormEpilogue::none, BatchNormEpilogue::relu, BatchNormEpilogue::add_relu}) {
      cases.push_back({ElementType::fp32, false, implementation, epilogue});
      cases.push_back({ElementType::fp32, true, implementation, epilogue});
      cases.push_back({ElementType::bf16, true, implementation, epilogue});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(PathsAndEpilogues, BatchNormGpuTest, ::testing::ValuesIn(batch_norm_cases()),
                         [](const auto& instance) {
                           const BatchNormCase& c = instance.param;
                           const char* epilogue = c.epilogue == BatchNormEpilogue::none ? "none"
                                                  : c.epilogue == BatchNormEpilogue::relu ? "relu"
                                                                                           : "add_relu";
                           return std::string(c.element == ElementType::bf16 ? "bf16_" : "fp32_") +
                                  (c.channels_last ? "nhwc_" : "nchw_") + name_of(c.implementation) + "_" +
                                  epilogue;
                         });

TEST_F(ResnetLayerGpuTest, MaxAndAveragePoolingMatchReference) {
  const ImageShape in{2, 5, 5, 2};
  const std::vector<float> x = random_values(static_cast<std::size_t>(in.elements()), 41);
  auto device_x = to_device(x);
  PoolingLayer max_pool(PoolingConfig{CUDNN_POOLING_MAX, 3, 1, 2});
  const ImageShape out = max_pool.prepare(in);
  ASSERT_EQ(out.height, 3);
  DeviceArray<float> y(static_cast<std::size_t>(out.elements()), "y");
  max_pool.forward(*context_, device_x.data(), y.data());
  std::vector<double> expected(y.size());
  for (int n = 0; n < in.batch; ++n) {
    for (int oy = 0; oy < 3; ++oy) {
      for (int ox = 0; ox < 3; ++ox) {
        for (int c = 0; c < in.channels; ++c) {
          double best = -1e300;
          for (int iy = oy * 2 - 1; iy <= oy * 2 + 1; ++iy) {
            for (int ix = ox * 2 - 1; ix <= ox * 2 + 1; ++ix) {
              if (iy < 0 || ix < 0 || iy >= in.height || ix >= in.width) continue;
              best = std::max(best, double(x[at(in, n, iy, ix, c)]));
            }
          }
          expected[at(out, n, oy, ox, c)] = best;
        }
      }
    }
  }
  expect_close(to_host(y.data(), y.size()), expected, 0.0, "max pooling");

  PoolingLayer average(global_average_pooling(in.height));
  const ImageShape pooled = average.prepare(in);
  ASSERT_EQ(pooled.height, 1);
  const std::vector<float> dy = random_values(static_cast<std::size_t>(pooled.elements()), 42);
  auto device_dy = to_device(dy);
  DeviceArray<float> mean(dy.size(), "mean");
  DeviceArray<float> dx(x.size(), "dx");
  average.forward(*context_, device_x.data(), mean.data());
  average.backward(*context_, device_x.data(), mean.data(), device_dy.data(), dx.data());
  std::vector<double> expected_mean(dy.size(), 0.0), expected_dx(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::size_t n = i / (25 * 2), c = i % 2;
    expected_mean[n * 2 + c] += x[i] / 25.0;
    expected_dx[i] = dy[n * 2 + c] / 25.0;
  }
  expect_close(to_host(mean.data(), mean.size()), expected_mean, 1e-5, "average pooling");
  expect_close(to_host(dx.data(), dx.size()), expected_dx, 1e-5, "average pooling gradient");
}

TEST_F(ResnetLayerGpuTest, BackwardStagesCoverEveryParameterOnce) {
  ResnetModel model(*context_, ResnetConfig{18, 32, 10, 4});
  std::size_t next = 0;
  for (int stage = model.backward_stages(); stage-- > 0;) {  // forward order
    const GradientRange range = model.stage_gradients(stage);
    EXPECT_EQ(range.offset, next) << stage;
    next = range.offset + range.count;
  }
  EXPECT_EQ(next, model.parameter_count());
}

class ResnetTrainingGpuTest : public ResnetLayerGpuTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(ResnetTrainingGpuTest, Resnet18LossFallsWithinAFewHundredSteps) {
  WorkloadOptions options;
  options.model = "resnet";
  options.depth = 18;
  options.image_size = 32;
  options.classes = 10;
  options.train_samples = 2048;
  options.validation_samples = 256;
  options.batch = 64;
  options.epochs = 4;  // 32 steps per epoch: 128 steps
  options.quiet = true;
  options.precision = GetParam();  // tf32 and bf16 run channels-last, fp32 NCHW
  const TrainingResult result = train_workload(options, make_training_plan(options, 1), nullptr);
  const auto& epochs = result.summary.epochs;
  ASSERT_EQ(epochs.size(), 4U);
  EXPECT_LT(epochs.back().train_loss, 0.7 * std::log(10.0));
  EXPECT_GT(*epochs.back().validation_accuracy, 0.3);  // chance is 0.1
}

INSTANTIATE_TEST_SUITE_P(Precisions, ResnetTrainingGpuTest, ::testing::Values("fp32", "tf32", "bf16"),
                         [](const auto& instance) { return std::string(instance.param); });

}  // namespace
}  // namespace gpuprof::workloads
