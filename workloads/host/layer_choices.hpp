#pragma once

#include <string>

#include "options.hpp"

namespace gpuprof::workloads {

// How the resnet's cuDNN layers pick their implementation (--conv-algo, --batch-norm).
// The old ways stay selectable so one binary compares old and new on the same GPU.
enum class ConvolutionSearch {
  heuristic,  // the first algorithm of cuDNN's _v7 heuristics whose workspace fits (never timed)
  measured,   // every candidate timed once per shape with cuDNN's find, the fastest that fits kept
  graph,      // cuDNN's graph API: a few engines of its heuristics timed once per shape, measured where refused
};

enum class BatchNormImplementation {
  legacy,  // cudnnBatchNormalizationForwardTraining / Backward, spatial mode, our own epilogue kernels
  fused,   // the ...Ex calls: persistent mode for channels-last training, ReLU and residual add fused
};

struct LayerChoices {
  ConvolutionSearch convolution = ConvolutionSearch::measured;
  BatchNormImplementation batch_norm = BatchNormImplementation::fused;
};

// From the option strings (already checked by the parser); throws WorkloadError naming the option otherwise.
LayerChoices layer_choices(const WorkloadOptions& options);

// The resnet model's layout (--layout): auto is channels-last with tensor cores (tf32, bf16),
// where cuDNN's kernels read it directly, and NCHW in fp32; nhwc and nchw force one, so an
// A/B run can tell whether fp32's NCHW tensors cost cuDNN transposes (nchwToNhwcKernel).
bool resnet_channels_last(const WorkloadOptions& options);

const char* name_of(ConvolutionSearch search);
const char* name_of(BatchNormImplementation implementation);

}  // namespace gpuprof::workloads
