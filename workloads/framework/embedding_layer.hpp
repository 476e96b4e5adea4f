#pragma once

#include <span>

#include "deterministic_random.hpp"
#include "device_context.hpp"
#include "parameter_layout.hpp"
#include "towers_kernels.hpp"

namespace gpuprof::workloads {

// A word-embedding table [vocab][width]: token ids in, [batch][length][width] out.
class EmbeddingLayer {
 public:
  EmbeddingLayer(int vocab, int width) : vocab_(vocab), width_(width) {}

  std::size_t parameter_count() const { return static_cast<std::size_t>(vocab_) * width_; }
  void bind(ParameterSlice slice) { parameters_ = slice; }
  // Normal with standard deviation 1, PyTorch's nn.Embedding default.
  void initialize(std::span<float> values, DeterministicRandom& random) const;

  void forward(const DeviceContext& context, const std::int32_t* tokens, TokenSpan span, int batch,
               float* output) const;
  // Adds dL/dtable (repeated tokens accumulate).
  void backward(const DeviceContext& context, const std::int32_t* tokens, TokenSpan span, int batch,
                const float* output_gradient) const;

  int width() const { return width_; }

 private:
  int vocab_;
  int width_;
  ParameterSlice parameters_;
};

}  // namespace gpuprof::workloads
