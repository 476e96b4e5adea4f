#include "recurrent_layer.hpp"

#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "cuda_check.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {

CellKind parse_cell(const std::string& name) {
  if (name == "gru") return CellKind::gru;
  if (name == "lstm") return CellKind::lstm;
  throw WorkloadError(fmt::format("unknown --cell '{}'; use gru or lstm", name));
}

namespace {

// cuDNN's RNNs take bf16 data from 9.13 on; older versions refuse the descriptor.
constexpr std::size_t first_cudnn_with_bf16_rnn = 91300;

cudnnMathType_t recurrent_math(Precision precision) {
  // FMA math keeps fp32 exact to fp32; tf32 lets cuDNN use tensor cores on fp32 data.
  if (precision == Precision::bf16) return CUDNN_TENSOR_OP_MATH;
  return precision == Precision::tf32 ? CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION : CUDNN_FMA_MATH;
}

RecurrentAlgorithmQuery algorithm_query(const DeviceContext& context, const RecurrentConfig& config) {
  RecurrentAlgorithmQuery query;
  query.automatic = config.automatic_algorithm;
  query.lstm = config.cell == CellKind::lstm;
  query.half_width_data = context.activation_type() == ElementType::bf16;
  query.inputs = config.inputs;
  query.hidden = config.hidden;
  query.layers = config.layers;
  query.seq_len = config.seq_len;
  query.batch = config.max_batch;
  GPUPROF_CHECK(cudaDeviceGetAttribute(&query.compute_major, cudaDevAttrComputeCapabilityMajor, context.device()));
  GPUPROF_CHECK(cudaDeviceGetAttribute(&query.compute_minor, cudaDevAttrComputeCapabilityMinor, context.device()));
  GPUPROF_CHECK(cudaDeviceGetAttribute(&query.multiprocessors, cudaDevAttrMultiProcessorCount, context.device()));
  return query;
}

cudnnRNNAlgo_t cudnn_algorithm(RecurrentAlgorithm algorithm) {
  switch (algorithm) {
    case RecurrentAlgorithm::persist_static: return CUDNN_RNN_ALGO_PERSIST_STATIC;
    case RecurrentAlgorithm::persist_static_small_h: return CUDNN_RNN_ALGO_PERSIST_STATIC_SMALL_H;
    case RecurrentAlgorithm::standard: break;
  }
  return CUDNN_RNN_ALGO_STANDARD;
}

}  // namespace

// Sets the RNN descriptor for `algorithm` and sizes its weight and temporary spaces. A status
// other than success is returned (not thrown) only for NOT_SUPPORTED of a persistent algorithm,
// which the caller answers by falling back to standard.
RecurrentLayer::Refusal RecurrentLayer::configure(const DeviceContext& context, RecurrentAlgorithm algorithm) {
  cudnnHandle_t cudnn = context.cudnn();
  auto refused = [algorithm](cudnnStatus_t status, const char* call) {
    if (status == CUDNN_STATUS_NOT_SUPPORTED && algorithm != RecurrentAlgorithm::standard) return true;
    check_status(status, call);
    return false;
  };
  const cudnnDataType_t data_type = cudnn_data_type(element_);
  cudnnStatus_t status = cudnnSetRNNDescriptor_v8(
      rnn_, cudnn_algorithm(algorithm), config_.cell == CellKind::gru ? CUDNN_GRU : CUDNN_LSTM,
      CUDNN_RNN_DOUBLE_BIAS, CUDNN_UNIDIRECTIONAL, CUDNN_LINEAR_INPUT, data_type, CUDNN_DATA_FLOAT,
      recurrent_math(context.precision()), config_.inputs, config_.hidden, config_.hidden, config_.layers,
      dropout_, CUDNN_RNN_PADDED_IO_ENABLED);
  if (refused(status, "cudnnSetRNNDescriptor_v8")) return {status, "cudnnSetRNNDescriptor_v8", algorithm};
  std::size_t weight_bytes = 0;
  status = cudnnGetRNNWeightSpaceSize(cudnn, rnn_, &weight_bytes);
  if (refused(status, "cudnnGetRNNWeightSpaceSize")) return {status, "cudnnGetRNNWeightSpaceSize", algorithm};
  // The weight space was laid out (and bound) for the first algorithm: a fallback must keep it.
  if (weight_space_bytes_ != 0 && weight_bytes != weight_space_bytes_) {
    throw WorkloadError(fmt::format("the cuDNN RNN weight space is {} bytes with the {} algorithm, not {}",
                                    weight_bytes, recurrent_algorithm_name(algorithm), weight_space_bytes_));
  }
  weight_space_bytes_ = weight_bytes;
  batch_ = 0;  // the data descriptors are set again for the largest batch
  set_batch(config_.max_batch);
  std::size_t workspace_bytes = 0;
  std::size_t reserve_bytes = 0;
  status = cudnnGetRNNTempSpaceSizes(cudnn, rnn_, CUDNN_FWD_MODE_TRAINING, input_descriptor_, &workspace_bytes,
                                     &reserve_bytes);
  if (refused(status, "cudnnGetRNNTempSpaceSizes")) return {status, "cudnnGetRNNTempSpaceSizes", algorithm};
  // Sized once for the largest batch; smaller (validation) batches reuse them.
  if (workspace_bytes > workspace_.bytes()) workspace_ = DeviceArray<std::uint8_t>(workspace_bytes, "RNN workspace");
  if (reserve_bytes > reserve_.bytes()) {
    reserve_ = DeviceArray<std::uint8_t>(reserve_bytes, "RNN reserve space (activations kept for backward)");
  }
  algorithm_ = algorithm;
  return {};
}

void RecurrentLayer::fall_back_to_standard(const DeviceContext& context, const Refusal& refusal) {
  notes_.push_back(fmt::format("note: cuDNN refused the {} RNN algorithm ({}: {}); the layer runs the standard "
                               "algorithm",
                               recurrent_algorithm_name(refusal.algorithm), refusal.stage,
                               cudnnGetErrorString(refusal.status)));
  configure(context, RecurrentAlgorithm::standard);
}

RecurrentLayer::RecurrentLayer(const DeviceContext& context, const RecurrentConfig& config)
    : config_(config), element_(context.activation_type()) {
  context.make_current();
  if (element_ == ElementType::bf16 && cudnnGetVersion() < first_cudnn_with_bf16_rnn) {
    throw WorkloadError(fmt::format("--precision bf16 for recurrent layers needs cuDNN 9.13 or newer; this is "
                                    "cuDNN {}; use fp32 or tf32",
                                    cudnnGetVersion()),
                        exit_bad_input);
  }
  cudnnHandle_t cudnn = context.cudnn();
  GPUPROF_CHECK(cudnnCreateDropoutDescriptor(&dropout_));
  std::size_t state_bytes = 0;
  GPUPROF_CHECK(cudnnDropoutGetStatesSize(cudnn, &state_bytes));
  dropout_states_ = DeviceArray<std::uint8_t>(state_bytes, "RNN dropout states");
  GPUPROF_CHECK(cudnnSetDropoutDescriptor(dropout_, cudnn, config.dropout, dropout_states_.data(),
                                          state_bytes, config.dropout_seed));

  GPUPROF_CHECK(cudnnCreateRNNDescriptor(&rnn_));
  GPUPROF_CHECK(cudnnCreateRNNDataDescriptor(&input_descriptor_));
  GPUPROF_CHECK(cudnnCreateRNNDataDescriptor(&output_descriptor_));
  GPUPROF_CHECK(cudnnCreateTensorDescriptor(&state_descriptor_));

  const std::vector<std::int32_t> lengths(static_cast<std::size_t>(config.max_batch), config.seq_len);
  sequence_lengths_ = DeviceArray<std::int32_t>(lengths.size(), "RNN sequence lengths");
  GPUPROF_CHECK(cudaMemcpy(sequence_lengths_.data(), lengths.data(), lengths.size() * sizeof(std::int32_t),
                           cudaMemcpyHostToDevice));

  const RecurrentAlgorithmChoice choice = choose_recurrent_algorithm(algorithm_query(context, config));
  notes_.push_back(fmt::format("rnn: cuDNN RNN algorithm {} ({})", recurrent_algorithm_name(choice.algorithm),
                               choice.reason));
  const Refusal refusal = configure(context, choice.algorithm);
  if (refusal.status != CUDNN_STATUS_SUCCESS) fall_back_to_standard(context, refusal);
  const auto batch = static_cast<std::size_t>(config.max_batch);
  const auto steps = static_cast<std::size_t>(config.seq_len);
  output_ = activations(batch * steps * config.hidden, "RNN outputs");
  output_gradient_ = activations(output_.size(), "RNN output gradients");
  GPUPROF_CHECK(cudaMemset(output_gradient_.data(), 0, output_gradient_.bytes()));
  input_gradient_ = activations(batch * steps * config.inputs, "RNN input gradients");
  final_hidden_ = activations(hidden_state_count(), "RNN final hidden states");
  final_hidden_gradient_ = activations(hidden_state_count(), "RNN final hidden state gradients");
  if (config.cell == CellKind::lstm) final_cell_ = activations(hidden_state_count(), "LSTM cell states");
  if (element_ == ElementType::bf16) {
    input_bf16_ = activations(batch * steps * config.inputs, "RNN bf16 inputs");
    top_hidden_ = DeviceArray<float>(batch * config.hidden, "RNN final top hidden state");
  }
  // The memset above is not ordered with the non-blocking compute stream.
  GPUPROF_CHECK(cudaDeviceSynchronize());
}

RecurrentLayer::~RecurrentLayer() {
  if (state_descriptor_ != nullptr) cudnnDestroyTensorDescriptor(state_descriptor_);
  if (output_descriptor_ != nullptr) cudnnDestroyRNNDataDescriptor(output_descriptor_);
  if (input_descriptor_ != nullptr) cudnnDestroyRNNDataDescriptor(input_descriptor_);
  if (rnn_ != nullptr) cudnnDestroyRNNDescriptor(rnn_);
  if (dropout_ != nullptr) cudnnDestroyDropoutDescriptor(dropout_);
}

std::size_t RecurrentLayer::hidden_state_count() const {
  return static_cast<std::size_t>(config_.layers) * config_.max_batch * config_.hidden;
}

void RecurrentLayer::set_batch(int batch) {
  if (batch == batch_) return;
  if (batch < 1 || batch > config_.max_batch) {
    throw WorkloadError(fmt::format("RNN batch {} outside 1..{}", batch, config_.max_batch));
  }
  const std::vector<int> lengths(static_cast<std::size_t>(batch), config_.seq_len);
  // Read as the data type; a zero float begins with a zero bf16. No step is padding anyway.
  float padding = 0.0F;
  const cudnnDataType_t data_type = cudnn_data_type(element_);
  GPUPROF_CHECK(cudnnSetRNNDataDescriptor(input_descriptor_, data_type,
                                          CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED, config_.seq_len, batch,
                                          config_.inputs, lengths.data(), &padding));
  GPUPROF_CHECK(cudnnSetRNNDataDescriptor(output_descriptor_, data_type,
                                          CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED, config_.seq_len, batch,
                                          config_.hidden, lengths.data(), &padding));
  const int dimensions[3] = {config_.layers, batch, config_.hidden};
  const int strides[3] = {batch * config_.hidden, config_.hidden, 1};
  GPUPROF_CHECK(cudnnSetTensorNdDescriptor(state_descriptor_, data_type, 3, dimensions, strides));
  batch_ = batch;
}

void RecurrentLayer::initialize(std::span<float> values, DeterministicRandom& random) const {
  const double bound = 1.0 / std::sqrt(static_cast<double>(config_.hidden));
  for (float& value : values) value = static_cast<float>(random.uniform(-bound, bound));
}

const void* RecurrentLayer::weight_space() const {
  return element_ == ElementType::bf16 ? parameters_.bf16_values : static_cast<const void*>(parameters_.values);
}

const float* RecurrentLayer::forward(const DeviceContext& context, const float* input, int batch,
                                     bool training) {
  set_batch(batch);
  cudaStream_t stream = context.compute_stream();
  last_input_ = input;
  if (element_ == ElementType::bf16) {
    launch_round_to_bf16(input, input_bf16_.data(),
                         static_cast<long long>(batch) * config_.seq_len * config_.inputs, stream);
    last_input_ = input_bf16_.data();
  }
  cudnnStatus_t status = forward_call(context, training);
  // A persistent algorithm may refuse a batch size only at run time (a last, smaller validation batch).
  if (status == CUDNN_STATUS_NOT_SUPPORTED && algorithm_ != RecurrentAlgorithm::standard) {
    fall_back_to_standard(context, Refusal{status, "cudnnRNNForward", algorithm_});
    set_batch(batch);
    status = forward_call(context, training);
  }
  check_status(status, "cudnnRNNForward");
  const std::size_t top_offset = static_cast<std::size_t>(config_.layers - 1) * batch * config_.hidden;
  const void* top = static_cast<const std::byte*>(final_hidden_.data()) + top_offset * element_bytes(element_);
  if (element_ == ElementType::fp32) return static_cast<const float*>(top);
  launch_widen_from_bf16(top, top_hidden_.data(), static_cast<long long>(batch) * config_.hidden, stream);
  return top_hidden_.data();
}

// Null initial states mean zeros.
cudnnStatus_t RecurrentLayer::forward_call(const DeviceContext& context, bool training) {
  return cudnnRNNForward(
      context.cudnn(), rnn_, training ? CUDNN_FWD_MODE_TRAINING : CUDNN_FWD_MODE_INFERENCE,
      sequence_lengths_.data(), input_descriptor_, last_input_, output_descriptor_, output_.data(),
      state_descriptor_, nullptr, final_hidden_.data(), state_descriptor_, nullptr,
      config_.cell == CellKind::lstm ? final_cell_.data() : nullptr, weight_space_bytes_, weight_space(),
      workspace_.bytes(), workspace_.data(), training ? reserve_.bytes() : 0, training ? reserve_.data() : nullptr);
}

cudnnStatus_t RecurrentLayer::backward_data_call(const DeviceContext& context) {
  return cudnnRNNBackwardData_v8(
      context.cudnn(), rnn_, sequence_lengths_.data(), output_descriptor_, output_.data(),
      output_gradient_.data(), input_descriptor_, input_gradient_.data(), state_descriptor_, nullptr,
      final_hidden_gradient_.data(), nullptr, state_descriptor_, nullptr, nullptr, nullptr,
      weight_space_bytes_, weight_space(), workspace_.bytes(), workspace_.data(), reserve_.bytes(),
      reserve_.data());
}

cudnnStatus_t RecurrentLayer::backward_weights_call(const DeviceContext& context) {
  const bool bf16 = element_ == ElementType::bf16;
  return cudnnRNNBackwardWeights_v8(
      context.cudnn(), rnn_, CUDNN_WGRAD_MODE_ADD, sequence_lengths_.data(),
      input_descriptor_, last_input_, state_descriptor_, nullptr, output_descriptor_, output_.data(),
      weight_space_bytes_, bf16 ? parameters_.bf16_gradients : static_cast<void*>(parameters_.gradients),
      workspace_.bytes(), workspace_.data(), reserve_.bytes(), reserve_.data());
}

// A backward call refused the persistent algorithm: the step's forward pass is run again with the
// standard one, whose reserve space the backward calls then read (same inputs and weights: the same
// values up to rounding as the outputs the loss already read).
void RecurrentLayer::redo_forward_with_standard(const DeviceContext& context, const Refusal& refusal) {
  const int batch = batch_;
  fall_back_to_standard(context, refusal);
  set_batch(batch);
  check_status(forward_call(context, true), "cudnnRNNForward");
}

void RecurrentLayer::backward(const DeviceContext& context, const float* last_hidden_gradient) {
  const auto per_layer = static_cast<std::size_t>(batch_) * config_.hidden;
  const std::size_t bytes = element_bytes(element_);
  cudaStream_t stream = context.compute_stream();
  // Only the top layer's final state feeds the classifier; lower layers get zero.
  GPUPROF_CHECK(cudaMemsetAsync(final_hidden_gradient_.data(), 0, per_layer * config_.layers * bytes, stream));
  launch_store_as(element_, last_hidden_gradient,
                  static_cast<std::byte*>(final_hidden_gradient_.data()) + per_layer * (config_.layers - 1) * bytes,
                  static_cast<long long>(per_layer), stream);
  // Data gradients first: they fill the reserve space that the weight gradients read.
  const bool persistent = algorithm_ != RecurrentAlgorithm::standard;
  cudnnStatus_t status = backward_data_call(context);
  if (status == CUDNN_STATUS_NOT_SUPPORTED && persistent) {
    redo_forward_with_standard(context, Refusal{status, "cudnnRNNBackwardData_v8", algorithm_});
    status = backward_data_call(context);
  }
  check_status(status, "cudnnRNNBackwardData_v8");
  // bf16 weight gradients are computed into a zeroed bf16 buffer (the _v8 call only adds) and
  // then added to the fp32 gradients, rather than accumulated in bf16 across calls.
  const bool bf16 = element_ == ElementType::bf16;
  if (bf16) GPUPROF_CHECK(cudaMemsetAsync(parameters_.bf16_gradients, 0, weight_space_bytes_, stream));
  status = backward_weights_call(context);
  if (status == CUDNN_STATUS_NOT_SUPPORTED && persistent) {
    redo_forward_with_standard(context, Refusal{status, "cudnnRNNBackwardWeights_v8", algorithm_});
    check_status(backward_data_call(context), "cudnnRNNBackwardData_v8");
    status = backward_weights_call(context);
  }
  check_status(status, "cudnnRNNBackwardWeights_v8");
  if (bf16) {
    launch_add_bf16_into(parameters_.gradients, parameters_.bf16_gradients,
                         static_cast<long long>(parameter_count()), stream);
  }
}

RecurrentWeightPosition RecurrentLayer::weight_position(const DeviceContext& context, int layer,
                                                        int linear_id) const {
  cudnnTensorDescriptor_t matrix_descriptor = nullptr;
  cudnnTensorDescriptor_t bias_descriptor = nullptr;
  GPUPROF_CHECK(cudnnCreateTensorDescriptor(&matrix_descriptor));
  GPUPROF_CHECK(cudnnCreateTensorDescriptor(&bias_descriptor));
  void* matrix = nullptr;
  void* bias = nullptr;
  const cudnnStatus_t status =
      cudnnGetRNNWeightParams(context.cudnn(), rnn_, layer, weight_space_bytes_, weight_space(), linear_id,
                              matrix_descriptor, &matrix, bias_descriptor, &bias);
  auto element_count = [](cudnnTensorDescriptor_t descriptor) {
    cudnnDataType_t type{};
    int rank = 0;
    int dimensions[8] = {};
    int strides[8] = {};
    GPUPROF_CHECK(cudnnGetTensorNdDescriptor(descriptor, 8, &type, &rank, dimensions, strides));
    std::size_t count = 1;
    for (int i = 0; i < rank; ++i) count *= static_cast<std::size_t>(dimensions[i]);
    return count;
  };
  RecurrentWeightPosition position;
  if (status == CUDNN_STATUS_SUCCESS) {
    const auto* base = static_cast<const std::byte*>(weight_space());
    const std::size_t bytes = element_bytes(element_);
    position.matrix_offset = static_cast<std::size_t>(static_cast<const std::byte*>(matrix) - base) / bytes;
    position.matrix_count = element_count(matrix_descriptor);
    position.bias_offset = static_cast<std::size_t>(static_cast<const std::byte*>(bias) - base) / bytes;
    position.bias_count = element_count(bias_descriptor);
  }
  cudnnDestroyTensorDescriptor(bias_descriptor);
  cudnnDestroyTensorDescriptor(matrix_descriptor);
  GPUPROF_CHECK(status);
  return position;
}

}  // namespace gpuprof::workloads
