// The cuDNN GRU/LSTM layer against a float64 CPU implementation of cuDNN's
// equations, and its weight gradients against finite differences.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "device_context.hpp"
#include "gpu_availability.hpp"
#include "gpu_test_helpers.hpp"
#include "recurrent_layer.hpp"

namespace gpuprof::workloads {
namespace {

using namespace gpuprof::workloads::testing;

constexpr int batch = 3;
constexpr int features = 4;
constexpr int hidden = 5;
constexpr int layers = 2;
constexpr int steps = 6;

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Gate pre-activations W x + b_W and R h + b_R for cuDNN's linear id `gate`.
struct GateMath {
  const std::vector<float>& weights;
  RecurrentWeightPosition input_position;
  RecurrentWeightPosition recurrent_position;
  int input_size;

  double input_part(int unit, const std::vector<double>& x) const {
    double sum = weights[input_position.bias_offset + unit];
    for (int i = 0; i < input_size; ++i) sum += weights[input_position.matrix_offset + unit * input_size + i] * x[i];
    return sum;
  }
  double recurrent_part(int unit, const std::vector<double>& h) const {
    double sum = weights[recurrent_position.bias_offset + unit];
    for (int i = 0; i < hidden; ++i) sum += weights[recurrent_position.matrix_offset + unit * hidden + i] * h[i];
    return sum;
  }
};

// Final top-layer hidden state per sample, [batch][hidden], in float64.
std::vector<double> reference_final_hidden(RecurrentLayer& layer, const DeviceContext& context, CellKind cell,
                                           const std::vector<float>& weights, const std::vector<float>& input) {
  const int gates = cell == CellKind::gru ? 3 : 4;
  std::vector<double> result;
  for (int n = 0; n < batch; ++n) {
    std::vector<std::vector<double>> sequence(steps, std::vector<double>(features));
    for (int t = 0; t < steps; ++t) {
      for (int f = 0; f < features; ++f) sequence[t][f] = input[(n * steps + t) * features + f];
    }
    for (int l = 0; l < layers; ++l) {
      const int input_size = l == 0 ? features : hidden;
      std::vector<GateMath> gate;
      for (int g = 0; g < gates; ++g) {
        gate.push_back({weights, layer.weight_position(context, l, g), layer.weight_position(context, l, g + gates),
                        input_size});
      }
      std::vector<double> h(hidden, 0.0);
      std::vector<double> c(hidden, 0.0);
      for (int t = 0; t < steps; ++t) {
        std::vector<double> next(hidden);
        for (int u = 0; u < hidden; ++u) {
          if (cell == CellKind::gru) {  // ids: 0 reset, 1 update, 2 new memory
            const double r = sigmoid(gate[0].input_part(u, sequence[t]) + gate[0].recurrent_part(u, h));
            const double z = sigmoid(gate[1].input_part(u, sequence[t]) + gate[1].recurrent_part(u, h));
            const double candidate = std::tanh(gate[2].input_part(u, sequence[t]) + r * gate[2].recurrent_part(u, h));
            next[u] = (1.0 - z) * candidate + z * h[u];
          } else {  // ids: 0 input, 1 forget, 2 new memory, 3 output
            const double i = sigmoid(gate[0].input_part(u, sequence[t]) + gate[0].recurrent_part(u, h));
            const double f = sigmoid(gate[1].input_part(u, sequence[t]) + gate[1].recurrent_part(u, h));
            const double g = std::tanh(gate[2].input_part(u, sequence[t]) + gate[2].recurrent_part(u, h));
            const double o = sigmoid(gate[3].input_part(u, sequence[t]) + gate[3].recurrent_part(u, h));
            c[u] = f * c[u] + i * g;
            next[u] = o * std::tanh(c[u]);
          }
        }
        // LSTM's cell update above used c in place; h must switch only after all units.
        h = next;
        sequence[t] = h;
      }
      if (l == layers - 1) result.insert(result.end(), h.begin(), h.end());
    }
  }
  return result;
}

struct RecurrentCase {
  CellKind cell = CellKind::gru;
  Precision precision = Precision::fp32;
};

class RecurrentLayerGpuTest : public ::testing::TestWithParam<RecurrentCase> {
 protected:
  void SetUp() override { GPUPROF_SKIP_WITHOUT_GPU(); }
};

// fp32: the forward pass to 2e-5 of the reference, weight gradients by finite differences
// of the GPU's forward pass. bf16 (cuDNN keeps states and outputs in bf16 between steps):
// from weights and inputs bf16 holds exactly, the forward pass to bf16's rounding of each
// step, and weight gradients against differences of the float64 reference.
TEST_P(RecurrentLayerGpuTest, ForwardMatchesReferenceAndGradientsMatchDifferences) {
  const CellKind cell = GetParam().cell;
  const bool bf16 = GetParam().precision == Precision::bf16;
  DeviceContext context(0, GetParam().precision);
  RecurrentLayer layer(context, RecurrentConfig{cell, features, hidden, layers, steps, batch, 0.0F, 1});
  std::vector<float> weights = exact_in(bf16, random_values(layer.parameter_count(), 31, -0.6, 0.6));
  auto device_weights = to_device(weights);
  DeviceArray<float> gradients(weights.size(), "gradients");
  GPUPROF_CHECK(cudaMemset(gradients.data(), 0, gradients.bytes()));
  ActivationBuffer weights_bf16 = to_device_as(ElementType::bf16, weights);
  ActivationBuffer gradients_bf16(ElementType::bf16, weights.size(), "bf16 gradients");
  GPUPROF_CHECK(cudaDeviceSynchronize());
  layer.bind({device_weights.data(), gradients.data(), weights.size(), weights_bf16.data(), gradients_bf16.data()});
  const std::vector<float> input = exact_in(bf16, random_values(batch * steps * features, 32));
  auto device_input = to_device(input);
  const std::vector<float> output_weights = exact_in(bf16, random_values(batch * hidden, 33));
  auto device_output_weights = to_device(output_weights);

  const float* final_hidden = layer.forward(context, device_input.data(), batch, true);
  const auto actual = to_host(final_hidden, batch * hidden);
  expect_close(actual, reference_final_hidden(layer, context, cell, weights, input), bf16 ? 3e-2 : 2e-5,
               "final hidden");

  // L = sum(output_weights * final hidden): backward with dL/dh = output_weights.
  layer.backward(context, device_output_weights.data());
  const auto analytic = to_host(gradients.data(), gradients.size());
  auto gpu_loss = [&]() {
    GPUPROF_CHECK(cudaMemcpy(device_weights.data(), weights.data(), weights.size() * sizeof(float),
                             cudaMemcpyHostToDevice));
    const auto h = to_host(layer.forward(context, device_input.data(), batch, false), batch * hidden);
    double sum = 0.0;
    for (std::size_t i = 0; i < h.size(); ++i) sum += double(h[i]) * output_weights[i];
    return sum;
  };
  auto reference_loss = [&]() {
    const auto h = reference_final_hidden(layer, context, cell, weights, input);
    double sum = 0.0;
    for (std::size_t i = 0; i < h.size(); ++i) sum += h[i] * output_weights[i];
    return sum;
  };
  const char* what = cell == CellKind::gru ? "GRU" : "LSTM";
  if (bf16) {
    expect_gradient_matches_differences(weights, analytic, reference_loss, spread_indices(weights.size(), 40), 1e-3,
                                        5e-2, what);
  } else {
    expect_gradient_matches_differences(weights, analytic, gpu_loss, spread_indices(weights.size(), 40), 5e-3, 5e-3,
                                        what);
  }
}

// --rnn-algo auto on the small shape above picks the small-hidden persistent kernel (sm_60 or newer);
// if cuDNN refuses it, the layer says so once and runs the standard algorithm.
TEST_P(RecurrentLayerGpuTest, AutomaticAlgorithmIsPersistentOrSaysWhyNot) {
  DeviceContext context(0, GetParam().precision);
  RecurrentLayer automatic(context, RecurrentConfig{GetParam().cell, features, hidden, layers, steps, batch, 0.0F, 1});
  RecurrentLayer standard(context,
                          RecurrentConfig{GetParam().cell, features, hidden, layers, steps, batch, 0.0F, 1, false});
  EXPECT_EQ(standard.algorithm(), RecurrentAlgorithm::standard);
  EXPECT_EQ(automatic.parameter_count(), standard.parameter_count());
  ASSERT_FALSE(automatic.notes().empty());
  EXPECT_NE(automatic.notes().front().find("persist_static_small_h"), std::string::npos) << automatic.notes().front();
  if (automatic.algorithm() == RecurrentAlgorithm::standard) {
    ASSERT_EQ(automatic.notes().size(), 2U);
    EXPECT_NE(automatic.notes()[1].find("refused"), std::string::npos) << automatic.notes()[1];
  } else {
    EXPECT_EQ(automatic.algorithm(), RecurrentAlgorithm::persist_static_small_h);
    EXPECT_EQ(automatic.notes().size(), 1U);
  }
}

INSTANTIATE_TEST_SUITE_P(CellsAndPrecisions, RecurrentLayerGpuTest,
                         ::testing::Values(RecurrentCase{CellKind::gru, Precision::fp32},
                                           RecurrentCase{CellKind::lstm, Precision::fp32},
                                           RecurrentCase{CellKind::gru, Precision::bf16},
                                           RecurrentCase{CellKind::lstm, Precision::bf16}),
                         [](const auto& instance) {
                           return std::string(instance.param.cell == CellKind::gru ? "gru" : "lstm") +
                                  (instance.param.precision == Precision::bf16 ? "_bf16" : "_fp32");
                         });

}  // namespace
}  // namespace gpuprof::workloads
