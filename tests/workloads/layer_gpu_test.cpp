// Each layer's forward and backward on the GPU against a float64 CPU reference,
// and gradients against finite differences of the GPU's own forward pass.
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "dense_layer.hpp"
#include "device_context.hpp"
#include "device_optimizer.hpp"
#include "gpu_availability.hpp"
#include "gpu_test_helpers.hpp"
#include "host_optimizer.hpp"
#include "layer_kernels.hpp"
#include "loss_functions.hpp"

namespace gpuprof::workloads {
namespace {

using namespace gpuprof::workloads::testing;

constexpr int batch = 4;
constexpr int inputs = 5;
constexpr int outputs = 3;

class LayerGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GPUPROF_SKIP_WITHOUT_GPU();
    context_ = std::make_unique<DeviceContext>(0, Precision::fp32);
  }
  std::unique_ptr<DeviceContext> context_;
};

class DenseGpuTest : public LayerGpuTest, public ::testing::WithParamInterface<Precision> {};

// In bf16 the products take bf16 inputs; inputs that bf16 holds exactly make the result
// exact up to fp32 accumulation, so the reference and tolerance stay those of fp32.
TEST_P(DenseGpuTest, ForwardAndBackwardMatchFloat64Reference) {
  const bool bf16 = GetParam() == Precision::bf16;
  context_ = std::make_unique<DeviceContext>(0, GetParam());
  const DenseLayer layer(inputs, outputs);
  std::vector<float> parameters = exact_in(bf16, random_values(layer.parameter_count(), 1));
  const std::vector<float> x = exact_in(bf16, random_values(batch * inputs, 2));
  const std::vector<float> dy = exact_in(bf16, random_values(batch * outputs, 3));
  auto device_parameters = to_device(parameters);
  DeviceArray<float> gradients(parameters.size(), "gradients");
  gradients.zero(context_->compute_stream());
  auto device_x = to_device(x);
  auto device_dy = to_device(dy);
  DeviceArray<float> y(batch * outputs, "y");
  DeviceArray<float> dx(batch * inputs, "dx");
  DenseLayer bound(inputs, outputs);
  bound.bind({device_parameters.data(), gradients.data(), parameters.size()});
  bound.forward(*context_, device_x.data(), batch, y.data());
  bound.backward(*context_, device_x.data(), device_dy.data(), batch, dx.data());

  const float* w = parameters.data();
  const float* b = parameters.data() + inputs * outputs;
  std::vector<double> expected_y(batch * outputs);
  std::vector<double> expected_dx(batch * inputs, 0.0);
  std::vector<double> expected_gradients(parameters.size(), 0.0);
  for (int n = 0; n < batch; ++n) {
    for (int o = 0; o < outputs; ++o) {
      double sum = b[o];
      for (int i = 0; i < inputs; ++i) sum += double(w[o * inputs + i]) * x[n * inputs + i];
      expected_y[n * outputs + o] = sum;
      const double g = dy[n * outputs + o];
      for (int i = 0; i < inputs; ++i) {
        expected_gradients[o * inputs + i] += g * x[n * inputs + i];
        expected_dx[n * inputs + i] += g * w[o * inputs + i];
      }
      expected_gradients[inputs * outputs + o] += g;
    }
  }
  expect_close(to_host(y.data(), y.size()), expected_y, 1e-5, "y");
  expect_close(to_host(dx.data(), dx.size()), expected_dx, 1e-5, "dx");
  const std::vector<float> analytic = to_host(gradients.data(), gradients.size());
  expect_close(analytic, expected_gradients, 1e-5, "dW, db");
  if (bf16) return;  // perturbed weights are no longer bf16 numbers: differences would measure rounding

  // L = sum(dy * y) has exactly these gradients; check them by differences too.
  auto loss = [&]() {
    GPUPROF_CHECK(cudaMemcpy(device_parameters.data(), parameters.data(), parameters.size() * sizeof(float),
                             cudaMemcpyHostToDevice));
    bound.forward(*context_, device_x.data(), batch, y.data());
    const auto values = to_host(y.data(), y.size());
    double sum = 0.0;
    for (std::size_t i = 0; i < values.size(); ++i) sum += double(values[i]) * dy[i];
    return sum;
  };
  expect_gradient_matches_differences(parameters, analytic, loss, spread_indices(parameters.size(), 18), 1e-2,
                                      2e-3, "dense");
}

INSTANTIATE_TEST_SUITE_P(Precisions, DenseGpuTest, ::testing::Values(Precision::fp32, Precision::bf16),
                         [](const auto& instance) { return instance.param == Precision::bf16 ? "bf16" : "fp32"; });

TEST_F(LayerGpuTest, ActivationsMatchReferenceAndDifferences) {
  const int count = 64;
  std::vector<float> x = random_values(count, 4, -2.0, 2.0);
  const std::vector<float> weights = random_values(count, 5);
  for (ActivationKind kind : {ActivationKind::relu, ActivationKind::tanh}) {
    auto device_x = to_device(x);
    auto device_w = to_device(weights);
    DeviceArray<float> y(count, "y");
    DeviceArray<float> dx(count, "dx");
    launch_activation_forward(kind, device_x.data(), y.data(), count, context_->compute_stream());
    launch_activation_backward(kind, y.data(), device_w.data(), dx.data(), count, context_->compute_stream());
    std::vector<double> expected_y(count);
    std::vector<double> expected_dx(count);
    for (int i = 0; i < count; ++i) {
      const double value = x[i];
      expected_y[i] = kind == ActivationKind::relu ? std::max(value, 0.0) : std::tanh(value);
      const double slope = kind == ActivationKind::relu ? (value > 0 ? 1.0 : 0.0)
                                                        : 1.0 - expected_y[i] * expected_y[i];
      expected_dx[i] = weights[i] * slope;
    }
    expect_close(to_host(y.data(), count), expected_y, 1e-6, "activation y");
    const auto analytic = to_host(dx.data(), count);
    expect_close(analytic, expected_dx, 1e-6, "activation dx");
    auto loss = [&]() {
      auto input = to_device(x);
      launch_activation_forward(kind, input.data(), y.data(), count, context_->compute_stream());
      const auto values = to_host(y.data(), count);
      double sum = 0.0;
      for (int i = 0; i < count; ++i) sum += double(values[i]) * weights[i];
      return sum;
    };
    // Points near relu's kink would make differences meaningless; skip them.
    std::vector<std::size_t> indices;
    for (std::size_t i = 0; i < x.size(); i += 3) {
      if (std::fabs(x[i]) > 0.05F) indices.push_back(i);
    }
    expect_gradient_matches_differences(x, analytic, loss, indices, 1e-2, 3e-3, "activation");
  }
}

// Runs a loss kernel on `input` and returns (loss sum, correct count, gradient).
struct LossRun {
  double loss = 0.0;
  double correct = 0.0;
  std::vector<float> gradient;
};

template <typename Launch>
LossRun run_loss(const std::vector<float>& input, Launch launch) {
  auto device_input = to_device(input);
  DeviceArray<float> gradient(input.size(), "gradient");
  DeviceArray<double> metrics(2, "metrics");
  GPUPROF_CHECK(cudaMemset(metrics.data(), 0, metrics.bytes()));
  GPUPROF_CHECK(cudaDeviceSynchronize());
  launch(device_input.data(), gradient.data(), LossMetrics{metrics.data()});
  const auto sums = to_host(metrics.data(), 2);
  return {sums[0], sums[1], to_host(gradient.data(), input.size())};
}

TEST_F(LayerGpuTest, SoftmaxCrossEntropyMatchesReferenceAndDifferences) {
  const int rows = 6;
  const int classes = 4;
  const float scale = 0.5F;
  std::vector<float> logits = random_values(rows * classes, 6, -3.0, 3.0);
  const std::vector<std::int32_t> labels = {0, 3, 1, 2, 2, 0};
  auto device_labels = to_device(labels);
  cudaStream_t stream = context_->compute_stream();
  auto launch = [&](const float* input, float* gradient, LossMetrics metrics) {
    softmax_cross_entropy(input, device_labels.data(), rows, classes, scale, gradient, metrics, stream);
  };
  const LossRun run = run_loss(logits, launch);
  double expected_loss = 0.0;
  int expected_correct = 0;
  std::vector<double> expected_gradient(logits.size());
  for (int r = 0; r < rows; ++r) {
    const float* z = logits.data() + r * classes;
    double maximum = z[0];
    int best = 0;
    for (int c = 1; c < classes; ++c) {
      if (z[c] > maximum) { maximum = z[c]; best = c; }
    }
    double sum = 0.0;
    for (int c = 0; c < classes; ++c) sum += std::exp(z[c] - maximum);
    expected_loss += std::log(sum) + maximum - z[labels[r]];
    expected_correct += best == labels[r] ? 1 : 0;
    for (int c = 0; c < classes; ++c) {
      expected_gradient[r * classes + c] = scale * (std::exp(z[c] - maximum) / sum - (c == labels[r] ? 1 : 0));
    }
  }
  EXPECT_NEAR(run.loss, expected_loss, 1e-5 * (1 + expected_loss));
  EXPECT_EQ(run.correct, expected_correct);
  expect_close(run.gradient, expected_gradient, 1e-5, "softmax cross-entropy gradient");
  auto loss = [&]() { return scale * run_loss(logits, launch).loss; };
  expect_gradient_matches_differences(logits, run.gradient, loss, spread_indices(logits.size(), 12), 1e-2, 2e-3,
                                      "softmax cross-entropy");
}

TEST_F(LayerGpuTest, BinaryCrossEntropyMatchesReferenceAndDifferences) {
  const int count = 10;
  const float scale = 0.25F;
  std::vector<float> logits = random_values(count, 7, -4.0, 4.0);
  const std::vector<float> targets = random_values(count, 8, 0.0, 1.0);
  auto device_targets = to_device(targets);
  cudaStream_t stream = context_->compute_stream();
  auto launch = [&](const float* input, float* gradient, LossMetrics metrics) {
    binary_cross_entropy_with_logits(input, device_targets.data(), count, scale, gradient, metrics, stream);
  };
  const LossRun run = run_loss(logits, launch);
  double expected_loss = 0.0;
  int expected_correct = 0;
  std::vector<double> expected_gradient(count);
  for (int i = 0; i < count; ++i) {
    const double p = 1.0 / (1.0 + std::exp(-double(logits[i])));
    expected_loss += -(targets[i] * std::log(p) + (1.0 - targets[i]) * std::log(1.0 - p));
    expected_correct += (logits[i] > 0) == (targets[i] > 0.5F) ? 1 : 0;
    expected_gradient[i] = scale * (p - targets[i]);
  }
  EXPECT_NEAR(run.loss, expected_loss, 1e-5 * (1 + expected_loss));
  EXPECT_EQ(run.correct, expected_correct);
  expect_close(run.gradient, expected_gradient, 1e-5, "binary cross-entropy gradient");
  auto loss = [&]() { return scale * run_loss(logits, launch).loss; };
  expect_gradient_matches_differences(logits, run.gradient, loss, spread_indices(count, 10), 1e-2, 2e-3,
                                      "binary cross-entropy");
}

TEST_F(LayerGpuTest, MeanSquaredErrorMatchesReferenceAndDifferences) {
  const int count = 10;
  const float scale = 0.1F;
  std::vector<float> predictions = random_values(count, 9);
  const std::vector<float> targets = random_values(count, 10);
  auto device_targets = to_device(targets);
  cudaStream_t stream = context_->compute_stream();
  auto launch = [&](const float* input, float* gradient, LossMetrics metrics) {
    mean_squared_error(input, device_targets.data(), count, scale, gradient, metrics, stream);
  };
  const LossRun run = run_loss(predictions, launch);
  double expected_loss = 0.0;
  std::vector<double> expected_gradient(count);
  for (int i = 0; i < count; ++i) {
    const double difference = double(predictions[i]) - targets[i];
    expected_loss += difference * difference;
    expected_gradient[i] = scale * 2.0 * difference;
  }
  EXPECT_NEAR(run.loss, expected_loss, 1e-5 * (1 + expected_loss));
  expect_close(run.gradient, expected_gradient, 1e-5, "mean squared error gradient");
  auto loss = [&]() { return scale * run_loss(predictions, launch).loss; };
  expect_gradient_matches_differences(predictions, run.gradient, loss, spread_indices(count, 10), 1e-2, 2e-3,
                                      "mean squared error");
}

TEST_F(LayerGpuTest, DeviceOptimizersMatchTheHostOptimizer) {
  const std::size_t count = 1000;
  for (const char* kind : {"sgd", "adam"}) {
    const OptimizerConfig config = make_optimizer_config(kind, 0.01, 0.9);
    std::vector<float> host_parameters = random_values(count, 11);
    auto device_parameters = to_device(host_parameters);
    HostOptimizer host(config, count);
    DeviceOptimizer device(config, count);
    for (int step = 0; step < 3; ++step) {
      const std::vector<float> gradients = random_values(count, 20 + static_cast<std::uint64_t>(step));
      auto device_gradients = to_device(gradients);
      host.step(host_parameters, gradients);
      device.step(device_parameters.data(), device_gradients.data(), context_->compute_stream());
    }
    const auto result = to_host(device_parameters.data(), count);
    for (std::size_t i = 0; i < count; ++i) {
      ASSERT_NEAR(result[i], host_parameters[i], 1e-6 * (1.0 + std::fabs(host_parameters[i]))) << kind << " " << i;
    }
  }
}

}  // namespace
}  // namespace gpuprof::workloads
