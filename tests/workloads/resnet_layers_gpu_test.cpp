// The resnet model's cuDNN layers against float64 CPU references (channels-last), and
// convolution gradients against finite differences; then the whole model learns.
#include <cmath>
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
};

class Conv2dGpuTest : public ResnetLayerGpuTest, public ::testing::WithParamInterface<ConvolutionCase> {};

// fp32 is checked to 1e-5 and by finite differences. bf16 (bf16 activations and filter
// copy, fp32 accumulation) starts from numbers bf16 holds exactly and is checked against
// the float64 reference to bf16's rounding of the results.
TEST_P(Conv2dGpuTest, MatchesReferenceAndDifferences) {
  const bool bf16 = GetParam().precision == Precision::bf16;
  context_ = std::make_unique<DeviceContext>(0, GetParam().precision);
  const ElementType element = bf16 ? ElementType::bf16 : ElementType::fp32;
  const ImageShape in{2, 5, 5, 3, GetParam().channels_last, element};
  const Conv2dConfig config{in, 4, 3, 2, 1};
  Conv2dLayer layer(*context_, config);
  const ImageShape out = layer.output_shape();
  ASSERT_EQ(out.height, 3);
  std::vector<float> w = exact_in(bf16, random_values(layer.parameter_count(), 21));
  const std::vector<float> x = exact_in(bf16, random_values(static_cast<std::size_t>(in.elements()), 22));
  const std::vector<float> dy = exact_in(bf16, random_values(static_cast<std::size_t>(out.elements()), 23));
  auto device_w = to_device(w);
  ActivationBuffer device_w_bf16 = to_device_as(ElementType::bf16, w);
  ActivationBuffer dw_bf16(ElementType::bf16, w.size(), "dw bf16");
  // The layer adds to the gradients it is given: start from ones to see that it adds.
  auto dw = to_device(std::vector<float>(w.size(), 1.0F));
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
  std::vector<double> expected_dw(w.size(), 1.0);
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
  expect_close(analytic, expected_dw, bf16 ? 1e-2 : 1e-4, "conv2d filter gradient (added to ones)");
  if (bf16) return;  // perturbed filters are no longer bf16 numbers
  std::vector<float> analytic_only(analytic);
  for (float& value : analytic_only) value -= 1.0F;
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
                                           ConvolutionCase{true, Precision::bf16}),
                         [](const auto& instance) {
                           return std::string(instance.param.channels_last ? "nhwc" : "nchw") +
                                  (instance.param.precision == Precision::bf16 ? "_bf16" : "_fp32");
                         });

class BatchNormGpuTest : public ResnetLayerGpuTest, public ::testing::WithParamInterface<ElementType> {};

// bf16 activations with fp32 scale, shift and statistics, as in bf16 training.
TEST_P(BatchNormGpuTest, TrainingMatchesReference) {
  const ElementType element = GetParam();
  const bool bf16 = element == ElementType::bf16;
  const ImageShape shape{3, 2, 2, 4, true, element};
  const int channels = shape.channels;
  BatchNormLayer layer(channels);
  layer.prepare(shape);
  std::vector<float> parameters(2 * static_cast<std::size_t>(channels));
  for (int c = 0; c < channels; ++c) {
    parameters[static_cast<std::size_t>(c)] = 0.5F + 0.25F * static_cast<float>(c);      // scale
    parameters[static_cast<std::size_t>(channels + c)] = -0.1F * static_cast<float>(c);  // shift
  }
  const std::vector<float> x = exact_in(bf16, random_values(static_cast<std::size_t>(shape.elements()), 31));
  const std::vector<float> dy = exact_in(bf16, random_values(x.size(), 32));
  auto device_parameters = to_device(parameters);
  DeviceArray<float> gradients(parameters.size(), "gradients");
  gradients.zero(stream());
  layer.bind({device_parameters.data(), gradients.data(), parameters.size()});
  layer.reset_statistics(*context_);
  const ActivationBuffer device_x = to_device_as(element, x);
  const ActivationBuffer device_dy = to_device_as(element, dy);
  ActivationBuffer y(element, x.size(), "y");
  ActivationBuffer dx(element, x.size(), "dx");
  layer.forward(*context_, device_x.data(), y.data(), true);
  layer.backward(*context_, device_x.data(), device_dy.data(), dx.data());

  const auto m = static_cast<double>(shape.batch * shape.height * shape.width);
  std::vector<double> expected_y(x.size()), expected_dx(x.size()), expected_gradients(parameters.size());
  std::vector<double> expected_running_mean(static_cast<std::size_t>(channels));
  for (int c = 0; c < channels; ++c) {
    double mean = 0.0, variance = 0.0;
    const auto first = static_cast<std::size_t>(c);
    const auto stride = static_cast<std::size_t>(channels);
    for (std::size_t i = first; i < x.size(); i += stride) mean += x[i] / m;
    for (std::size_t i = static_cast<std::size_t>(c); i < x.size(); i += static_cast<std::size_t>(channels)) {
      variance += (x[i] - mean) * (x[i] - mean) / m;
    }
    const double inverse = 1.0 / std::sqrt(variance + 1e-5);
    const double scale = parameters[static_cast<std::size_t>(c)];
    double sum_dy = 0.0, sum_dy_xhat = 0.0;
    for (std::size_t i = static_cast<std::size_t>(c); i < x.size(); i += static_cast<std::size_t>(channels)) {
      const double xhat = (x[i] - mean) * inverse;
      expected_y[i] = scale * xhat + parameters[static_cast<std::size_t>(channels + c)];
      sum_dy += dy[i];
      sum_dy_xhat += dy[i] * xhat;
    }
    for (std::size_t i = static_cast<std::size_t>(c); i < x.size(); i += static_cast<std::size_t>(channels)) {
      const double xhat = (x[i] - mean) * inverse;
      expected_dx[i] = scale * inverse / m * (m * dy[i] - sum_dy - xhat * sum_dy_xhat);
    }
    expected_gradients[static_cast<std::size_t>(c)] = sum_dy_xhat;
    expected_gradients[static_cast<std::size_t>(channels + c)] = sum_dy;
    expected_running_mean[static_cast<std::size_t>(c)] = 0.1 * mean;
  }
  // bf16 rounds y and dx once (relative 2^-9); the fp32 sums behind them are exact enough.
  const double tolerance = bf16 ? 1e-2 : 1e-4;
  expect_close(to_host_floats(y), expected_y, tolerance, "batch norm output");
  expect_close(to_host_floats(dx), expected_dx, tolerance, "batch norm input gradient");
  expect_close(to_host(gradients.data(), parameters.size()), expected_gradients, bf16 ? 1e-3 : 1e-4,
               "batch norm parameters");
  expect_close(to_host(layer.running_mean(), static_cast<std::size_t>(channels)), expected_running_mean, 1e-5,
               "running mean");
}

INSTANTIATE_TEST_SUITE_P(Elements, BatchNormGpuTest, ::testing::Values(ElementType::fp32, ElementType::bf16),
                         [](const auto& instance) { return instance.param == ElementType::bf16 ? "bf16" : "fp32"; });

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
