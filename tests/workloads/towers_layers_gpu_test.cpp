// The towers model's layers on the GPU against float64 CPU references, and their
// gradients against finite differences of the GPU's own forward pass.
#include <cmath>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "conv1d_layer.hpp"
#include "device_context.hpp"
#include "embedding_layer.hpp"
#include "fm_head.hpp"
#include "gpu_availability.hpp"
#include "gpu_test_helpers.hpp"
#include "towers_kernels.hpp"

namespace gpuprof::workloads {
namespace {

using namespace gpuprof::workloads::testing;

class TowersLayerGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GPUPROF_SKIP_WITHOUT_GPU();
    context_ = std::make_unique<DeviceContext>(0, Precision::fp32);
  }
  cudaStream_t stream() const { return context_->compute_stream(); }
  std::unique_ptr<DeviceContext> context_;
};

double weighted_sum(const std::vector<float>& values, const std::vector<float>& weights) {
  double sum = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) sum += double(values[i]) * weights[i];
  return sum;
}

TEST_F(TowersLayerGpuTest, EmbeddingLooksUpRowsAndScattersGradients) {
  constexpr int vocab = 10, width = 4, batch = 2, length = 3;
  const TokenSpan span{8, 4, length};  // rows of 8 tokens; this tower reads tokens 4..6
  const std::vector<std::int32_t> tokens{0, 0, 0, 0, 3, 7, 3, 0, 1, 1, 1, 1, 9, 3, 0, 5};
  const std::vector<float> table = random_values(vocab * width, 1);
  const std::vector<float> dy = random_values(batch * length * width, 2);
  auto device_table = to_device(table);
  DeviceArray<float> table_gradient(table.size(), "table gradient");
  table_gradient.zero(stream());
  auto device_tokens = to_device(tokens);
  auto device_dy = to_device(dy);
  DeviceArray<float> y(dy.size(), "y");
  EmbeddingLayer layer(vocab, width);
  layer.bind({device_table.data(), table_gradient.data(), table.size()});
  layer.forward(*context_, device_tokens.data(), span, batch, y.data());
  layer.backward(*context_, device_tokens.data(), span, batch, device_dy.data());

  std::vector<double> expected_y(dy.size());
  std::vector<double> expected_gradient(table.size(), 0.0);
  for (int b = 0; b < batch; ++b) {
    for (int l = 0; l < length; ++l) {
      const int token = tokens[static_cast<std::size_t>(b * 8 + 4 + l)];
      for (int e = 0; e < width; ++e) {
        const int out = (b * length + l) * width + e;
        expected_y[out] = table[token * width + e];
        expected_gradient[token * width + e] += dy[out];
      }
    }
  }
  expect_close(to_host(y.data(), y.size()), expected_y, 0.0, "embedding output");
  expect_close(to_host(table_gradient.data(), table.size()), expected_gradient, 1e-6, "embedding gradient");
}

TEST_F(TowersLayerGpuTest, Conv1dMatchesReferenceAndDifferences) {
  const Conv1dShape shape{7, 3, 4, 3};  // length, width, filters, kernel
  constexpr int batch = 2;
  const int positions = shape.positions();
  Conv1dLayer layer(shape, batch);
  std::vector<float> parameters = random_values(layer.parameter_count(), 3);
  const std::vector<float> x = random_values(batch * shape.length * shape.width, 4);
  const std::vector<float> dy = random_values(batch * positions * shape.filters, 5);
  auto device_parameters = to_device(parameters);
  DeviceArray<float> gradients(parameters.size(), "gradients");
  gradients.zero(stream());
  auto device_x = to_device(x);
  auto device_dy = to_device(dy);
  DeviceArray<float> y(dy.size(), "y");
  DeviceArray<float> dx(x.size(), "dx");
  layer.bind({device_parameters.data(), gradients.data(), parameters.size()});
  layer.forward(*context_, device_x.data(), batch, y.data());
  layer.backward(*context_, device_dy.data(), batch, dx.data());

  const int window = shape.kernel * shape.width;
  const float* w = parameters.data();
  const float* bias = parameters.data() + shape.filters * window;
  std::vector<double> expected_y(dy.size());
  std::vector<double> expected_dx(x.size(), 0.0);
  for (int b = 0; b < batch; ++b) {
    for (int t = 0; t < positions; ++t) {
      for (int f = 0; f < shape.filters; ++f) {
        double sum = bias[f];
        const double g = dy[(b * positions + t) * shape.filters + f];
        for (int k = 0; k < shape.kernel; ++k) {
          for (int e = 0; e < shape.width; ++e) {
            const int in = (b * shape.length + t + k) * shape.width + e;
            sum += double(w[f * window + k * shape.width + e]) * x[in];
            expected_dx[in] += g * w[f * window + k * shape.width + e];
          }
        }
        expected_y[(b * positions + t) * shape.filters + f] = sum;
      }
    }
  }
  expect_close(to_host(y.data(), y.size()), expected_y, 1e-5, "conv output");
  expect_close(to_host(dx.data(), dx.size()), expected_dx, 1e-5, "conv input gradient");
  const std::vector<float> analytic = to_host(gradients.data(), parameters.size());
  auto loss = [&]() {
    GPUPROF_CHECK(cudaMemcpy(device_parameters.data(), parameters.data(), parameters.size() * sizeof(float),
                             cudaMemcpyHostToDevice));
    layer.forward(*context_, device_x.data(), batch, y.data());
    return weighted_sum(to_host(y.data(), y.size()), dy);
  };
  expect_gradient_matches_differences(parameters, analytic, loss, spread_indices(parameters.size(), 12), 1e-2, 2e-3,
                                      "conv filters");
}

TEST_F(TowersLayerGpuTest, MaxOverTimeForwardAndBackward) {
  constexpr int batch = 2, positions = 5, channels = 3;
  const std::vector<float> x = random_values(batch * positions * channels, 6);
  const std::vector<float> dy = random_values(batch * channels, 7);
  auto device_x = to_device(x);
  auto device_dy = to_device(dy);
  DeviceArray<float> y(dy.size(), "y");
  DeviceArray<std::int32_t> argmax(dy.size(), "argmax");
  DeviceArray<float> dx(x.size(), "dx");
  launch_max_over_time(device_x.data(), batch, positions, channels, y.data(), argmax.data(), stream());
  launch_max_over_time_backward(device_dy.data(), argmax.data(), batch, positions, channels, dx.data(), stream());
  std::vector<double> expected_y(dy.size());
  std::vector<double> expected_dx(x.size(), 0.0);
  for (int b = 0; b < batch; ++b) {
    for (int c = 0; c < channels; ++c) {
      int best = 0;
      for (int t = 1; t < positions; ++t) {
        if (x[(b * positions + t) * channels + c] > x[(b * positions + best) * channels + c]) best = t;
      }
      expected_y[b * channels + c] = x[(b * positions + best) * channels + c];
      expected_dx[(b * positions + best) * channels + c] = dy[b * channels + c];
    }
  }
  expect_close(to_host(y.data(), y.size()), expected_y, 0.0, "max over time");
  expect_close(to_host(dx.data(), dx.size()), expected_dx, 0.0, "max over time gradient");
}

TEST_F(TowersLayerGpuTest, FactorizationMachineMatchesReferenceAndDifferences) {
  constexpr int batch = 3;
  const FactorizationShape shape{3, 2};
  FmHead head(shape, batch);
  std::vector<float> parameters = random_values(head.parameter_count(), 8);
  std::vector<float> first = random_values(batch * shape.width, 9);
  const std::vector<float> second = random_values(batch * shape.width, 10);
  const std::vector<float> dy = random_values(batch, 11);
  auto device_parameters = to_device(parameters);
  DeviceArray<float> gradients(parameters.size(), "gradients");
  gradients.zero(stream());
  auto device_first = to_device(first);
  auto device_second = to_device(second);
  auto device_dy = to_device(dy);
  DeviceArray<float> y(batch, "y");
  DeviceArray<float> d_first(first.size(), "d first");
  DeviceArray<float> d_second(second.size(), "d second");
  head.bind({device_parameters.data(), gradients.data(), parameters.size()});
  head.forward(*context_, device_first.data(), device_second.data(), batch, y.data());
  head.backward(*context_, device_first.data(), device_second.data(), device_dy.data(), batch, d_first.data(),
                d_second.data());

  const int n = 2 * shape.width;
  std::vector<double> expected(batch);
  for (int b = 0; b < batch; ++b) {
    std::vector<double> z(n);
    for (int i = 0; i < n; ++i) {
      z[i] = i < shape.width ? first[b * shape.width + i] : second[b * shape.width + i - shape.width];
    }
    double value = parameters[0];
    for (int i = 0; i < n; ++i) value += parameters[1 + i] * z[i];
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        double dot = 0.0;
        for (int f = 0; f < shape.factors; ++f) {
          dot += double(parameters[1 + n + i * shape.factors + f]) * parameters[1 + n + j * shape.factors + f];
        }
        value += dot * z[i] * z[j];
      }
    }
    expected[b] = value;
  }
  expect_close(to_host(y.data(), batch), expected, 1e-5, "factorization machine output");
  auto loss_of_parameters = [&]() {
    GPUPROF_CHECK(cudaMemcpy(device_parameters.data(), parameters.data(), parameters.size() * sizeof(float),
                             cudaMemcpyHostToDevice));
    head.forward(*context_, device_first.data(), device_second.data(), batch, y.data());
    return weighted_sum(to_host(y.data(), batch), dy);
  };
  expect_gradient_matches_differences(parameters, to_host(gradients.data(), parameters.size()), loss_of_parameters,
                                      spread_indices(parameters.size(), 19), 1e-2, 2e-3, "fm parameters");
  GPUPROF_CHECK(cudaMemcpy(device_parameters.data(), parameters.data(), parameters.size() * sizeof(float),
                           cudaMemcpyHostToDevice));  // undo the last perturbation
  auto loss_of_first = [&]() {
    GPUPROF_CHECK(cudaMemcpy(device_first.data(), first.data(), first.size() * sizeof(float), cudaMemcpyHostToDevice));
    head.forward(*context_, device_first.data(), device_second.data(), batch, y.data());
    return weighted_sum(to_host(y.data(), batch), dy);
  };
  expect_gradient_matches_differences(first, to_host(d_first.data(), first.size()), loss_of_first,
                                      spread_indices(first.size(), 9), 1e-2, 2e-3, "fm first input");
}

}  // namespace
}  // namespace gpuprof::workloads
