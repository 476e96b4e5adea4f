#pragma once

#include <string>

namespace gpuprof::workloads {

// cuDNN's RNN algorithms we use (cudnnRNNAlgo_t without PERSIST_DYNAMIC, which needs a plan
// built at run time for every shape).
enum class RecurrentAlgorithm { standard, persist_static, persist_static_small_h };

const char* recurrent_algorithm_name(RecurrentAlgorithm algorithm);

// What the choice depends on: the request (--rnn-algo), the layer and the GPU.
struct RecurrentAlgorithmQuery {
  bool automatic = true;  // --rnn-algo auto; false: standard, the old path
  bool lstm = false;      // else GRU
  bool half_width_data = false;  // bf16 activations (16-bit data), else fp32
  int inputs = 0;
  int hidden = 0;
  int layers = 1;
  int seq_len = 0;
  int batch = 0;  // the training batch on this GPU
  int compute_major = 0;
  int compute_minor = 0;
  int multiprocessors = 0;
};

struct RecurrentAlgorithmChoice {
  RecurrentAlgorithm algorithm = RecurrentAlgorithm::standard;
  std::string reason;  // one clause, for the run's output
};

// Persistent kernels where the frameworks use them, standard otherwise:
//  - PERSIST_STATIC_SMALL_H for GRU/LSTM with hidden <= 128 (the limit for the backward pass, which
//    training runs) on compute capability 6.0 or newer, every sequence the same length (ours are);
//  - PERSIST_STATIC for 16-bit data, one layer, hidden and inputs multiples of 128 up to 1024, on
//    GPUs and batches where it measured faster (sm_70 by batch and length; sm_80+ with 98 or more
//    SMs, not sm_86, LSTM only, batch a multiple of 8 up to 128);
//  - STANDARD otherwise. cuDNN may still refuse a persistent algorithm (NOT_SUPPORTED): the layer
//    then falls back to standard and says so.
RecurrentAlgorithmChoice choose_recurrent_algorithm(const RecurrentAlgorithmQuery& query);

}  // namespace gpuprof::workloads
