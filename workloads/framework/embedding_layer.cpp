#include "embedding_layer.hpp"

namespace gpuprof::workloads {

void EmbeddingLayer::initialize(std::span<float> values, DeterministicRandom& random) const {
  for (float& value : values) value = static_cast<float>(random.normal());
}

void EmbeddingLayer::forward(const DeviceContext& context, const std::int32_t* tokens, TokenSpan span, int batch,
                             float* output) const {
  launch_embedding_forward(parameters_.values, tokens, span, batch, width_, output, context.compute_stream());
}

void EmbeddingLayer::backward(const DeviceContext& context, const std::int32_t* tokens, TokenSpan span, int batch,
                              const float* output_gradient) const {
  launch_embedding_backward(tokens, span, batch, width_, output_gradient, parameters_.gradients,
                            context.compute_stream());
}

}  // namespace gpuprof::workloads
