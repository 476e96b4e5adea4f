#pragma once

#include <cudnn.h>

#include <optional>
#include <string>

#include "element_type.hpp"
#include "layer_choices.hpp"

namespace gpuprof::workloads {

// What follows a batch normalisation in the network: nothing, a ReLU, or the residual
// add then a ReLU (the last unit of a residual block).
enum class BatchNormEpilogue { none, relu, add_relu };

// How a batch-norm layer trains: which cuDNN calls, which mode, and how much of the
// epilogue cuDNN fuses (the rest runs as our own elementwise kernel after it).
struct BatchNormPath {
  bool extended = false;  // cudnnBatchNormalizationForwardTrainingEx / BackwardEx, else the legacy calls
  cudnnBatchNormMode_t mode = CUDNN_BATCHNORM_SPATIAL;
  cudnnBatchNormOps_t ops = CUDNN_BATCHNORM_OPS_BN;
  friend bool operator==(const BatchNormPath&, const BatchNormPath&) = default;
};

struct BatchNormRequest {
  BatchNormImplementation implementation = BatchNormImplementation::fused;
  bool channels_last = true;
  ElementType element = ElementType::fp32;
  BatchNormEpilogue epilogue = BatchNormEpilogue::none;
};

// The path to try first. legacy: the legacy calls in spatial mode, as before. fused: the
// Ex calls; channels-last tensors in persistent mode (what frameworks train NHWC batch norm
// with), NCHW ones in spatial mode (persistent mode's NCHW kernels are not faster and
// frameworks avoid them for accuracy); the ReLU, or the residual add and ReLU, fused into
// cuDNN's kernel for bf16 channels-last tensors, the 16-bit NHWC case cuDNN's fused kernels
// are written for. fp32 and tf32 keep the epilogue in our kernel.
BatchNormPath choose_batch_norm_path(const BatchNormRequest& request);

// The next path after cuDNN refused `refused` (CUDNN_STATUS_NOT_SUPPORTED): first drop the
// fused epilogue, then the Ex calls; nothing after the legacy path.
std::optional<BatchNormPath> fallback_after(const BatchNormPath& refused);

// How much of the epilogue is left for our own kernel on this path.
BatchNormEpilogue epilogue_left(const BatchNormPath& path, BatchNormEpilogue epilogue);

// "Ex persistent, BN+add+ReLU fused" and the like, for notes.
std::string describe(const BatchNormPath& path);

}  // namespace gpuprof::workloads
