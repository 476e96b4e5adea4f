#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <cudnn.h>

#include "cuda_graph_plan.hpp"
#include "deterministic_random.hpp"
#include "device_array.hpp"
#include "device_context.hpp"
#include "element_type.hpp"
#include "parameter_layout.hpp"
#include "recurrent_algorithm.hpp"

namespace gpuprof::workloads {

enum class CellKind { gru, lstm };

CellKind parse_cell(const std::string& name);

struct RecurrentConfig {
  CellKind cell = CellKind::gru;
  int inputs = 0;   // features per time step
  int hidden = 0;
  int layers = 1;
  int seq_len = 0;
  int max_batch = 0;
  float dropout = 0.0F;  // between stacked layers, training only
  std::uint64_t dropout_seed = 0;
  bool automatic_algorithm = true;  // --rnn-algo auto: persistent kernels where they fit; else standard
};

// Where one weight matrix and its bias sit in the weight space (offsets in elements).
struct RecurrentWeightPosition {
  std::size_t matrix_offset = 0;
  std::size_t matrix_count = 0;
  std::size_t bias_offset = 0;
  std::size_t bias_count = 0;
};

// Stacked unidirectional GRU or LSTM over fixed-length sequences with cuDNN's RNN
// API (v8 entry points, cuDNN 9). Input is batch-major [batch][seq_len][inputs];
// the output used downstream is the top layer's final hidden state [batch][hidden].
// The weight space is a ParameterSlice of the replica's flat parameter array. With bf16
// precision (cuDNN 9.13 or newer) inputs, outputs, states and the weight space cuDNN reads
// are bf16 (the slice's bf16 copy); input and returned final state stay fp32 for the layers around.
class RecurrentLayer {
 public:
  RecurrentLayer(const DeviceContext& context, const RecurrentConfig& config);
  ~RecurrentLayer();
  RecurrentLayer(const RecurrentLayer&) = delete;
  RecurrentLayer& operator=(const RecurrentLayer&) = delete;

  std::size_t parameter_count() const { return weight_space_bytes_ / element_bytes(element_); }
  void bind(ParameterSlice slice) { parameters_ = slice; }
  // Uniform in +-1/sqrt(hidden) for every weight and bias, as PyTorch's GRU/LSTM.
  void initialize(std::span<float> values, DeterministicRandom& random) const;

  // Returns the top layer's final hidden state [batch][hidden], valid until the next forward.
  // Training mode keeps what backward needs; `input` must stay valid until then.
  const float* forward(const DeviceContext& context, const float* input, int batch, bool training);
  // Adds dL/dweights to the bound gradients, given dL/d(final top hidden state).
  void backward(const DeviceContext& context, const float* last_hidden_gradient);

  // cuDNN's placement of a gate's matrix: linear ids 0-2 (GRU r, z, n) or 0-3
  // (LSTM i, f, g, o) act on the input, the next ones on the recurrent state.
  RecurrentWeightPosition weight_position(const DeviceContext& context, int layer, int linear_id) const;

  const RecurrentConfig& config() const { return config_; }
  RecurrentAlgorithm algorithm() const { return algorithm_; }
  // The algorithm chosen and why, then any fallback to standard: for the run's output.
  const std::vector<std::string>& notes() const { return notes_; }
  // The temporary spaces a captured step reads and writes: a fallback to standard may reallocate them.
  std::vector<GraphBinding> graph_bindings() const {
    return {{"RNN workspace", workspace_.data(), workspace_.bytes()},
            {"RNN reserve space", reserve_.data(), reserve_.bytes()}};
  }

 private:
  // A persistent algorithm cuDNN would not run: where it said NOT_SUPPORTED.
  struct Refusal {
    cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
    const char* stage = "";
    RecurrentAlgorithm algorithm = RecurrentAlgorithm::standard;
  };
  Refusal configure(const DeviceContext& context, RecurrentAlgorithm algorithm);
  void fall_back_to_standard(const DeviceContext& context, const Refusal& refusal);
  void redo_forward_with_standard(const DeviceContext& context, const Refusal& refusal);
  cudnnStatus_t forward_call(const DeviceContext& context, bool training);
  cudnnStatus_t backward_data_call(const DeviceContext& context);
  cudnnStatus_t backward_weights_call(const DeviceContext& context);
  void set_batch(int batch);
  std::size_t hidden_state_count() const;
  const void* weight_space() const;
  ActivationBuffer activations(std::size_t count, const std::string& what) const {
    return ActivationBuffer(element_, count, what);
  }

  RecurrentConfig config_;
  ElementType element_;
  RecurrentAlgorithm algorithm_ = RecurrentAlgorithm::standard;
  std::vector<std::string> notes_;
  ParameterSlice parameters_;
  cudnnRNNDescriptor_t rnn_ = nullptr;
  cudnnDropoutDescriptor_t dropout_ = nullptr;
  cudnnRNNDataDescriptor_t input_descriptor_ = nullptr;
  cudnnRNNDataDescriptor_t output_descriptor_ = nullptr;
  cudnnTensorDescriptor_t state_descriptor_ = nullptr;
  std::size_t weight_space_bytes_ = 0;
  int batch_ = 0;
  const void* last_input_ = nullptr;
  DeviceArray<std::uint8_t> dropout_states_;
  DeviceArray<std::int32_t> sequence_lengths_;
  DeviceArray<std::uint8_t> workspace_;
  DeviceArray<std::uint8_t> reserve_;
  ActivationBuffer input_bf16_;             // bf16 runs: the input, rounded
  ActivationBuffer output_;                 // every step's top-layer output (cuDNN requires it)
  ActivationBuffer output_gradient_;        // zeros: the loss reads only the final state
  ActivationBuffer input_gradient_;
  ActivationBuffer final_hidden_;           // [layers][batch][hidden]
  ActivationBuffer final_cell_;             // LSTM only
  ActivationBuffer final_hidden_gradient_;
  DeviceArray<float> top_hidden_;           // bf16 runs: the top layer's final state in fp32
};

}  // namespace gpuprof::workloads
