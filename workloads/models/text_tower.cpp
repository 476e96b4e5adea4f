#include "text_tower.hpp"

#include "layer_kernels.hpp"

namespace gpuprof::workloads {
namespace {

std::unique_ptr<LayerLink> link(const std::string& tower, const DeviceContext* producer, const char* from,
                                const DeviceContext* consumer, const char* to, std::size_t floats,
                                std::vector<PlannedTransfer>* log) {
  return std::make_unique<LayerLink>(LayerLink::Ends{producer, consumer, tower + "." + from, tower + "." + to, false},
                                     floats, log);
}

}  // namespace

TextTower::TextTower(const std::string& name, const TowerShape& shape, const TowerPlacement& placement,
                     int max_batch, std::vector<PlannedTransfer>* log)
    : name_(name), shape_(shape), placement_(placement), embedding_(shape.vocab, shape.width),
      dense_(shape.filters, shape.outputs) {
  const auto batch = static_cast<std::size_t>(max_batch);
  const std::size_t embedded = batch * shape.length * shape.width;
  const Conv1dShape conv{shape.length, shape.width, shape.filters, shape.kernel};
  const std::size_t convolved = batch * conv.positions() * shape.filters;
  placement.embedding->make_current();
  embedded_ = DeviceArray<float>(embedded, name + " embedded tokens");
  placement.conv->make_current();
  conv_ = std::make_unique<Conv1dLayer>(conv, max_batch);
  convolved_ = DeviceArray<float>(convolved, name + " convolution output");
  convolved_gradient_ = DeviceArray<float>(convolved, name + " convolution output gradient");
  placement.pool->make_current();
  pooled_ = DeviceArray<float>(batch * shape.filters, name + " pooled features");
  argmax_ = DeviceArray<std::int32_t>(batch * shape.filters, name + " pooling positions");
  placement.dense->make_current();
  dense_output_ = DeviceArray<float>(batch * shape.outputs, name + " tower output");
  dense_gradient_ = DeviceArray<float>(batch * shape.outputs, name + " tower output gradient");
  embedding_to_conv_ = link(name, placement.embedding, "embedding", placement.conv, "conv", embedded, log);
  conv_to_pool_ = link(name, placement.conv, "conv", placement.pool, "pool", convolved, log);
  pool_to_dense_ = link(name, placement.pool, "pool", placement.dense, "dense", batch * shape.filters, log);
}

void TextTower::forward(const std::int32_t* tokens, TokenSpan span, int batch) {
  tokens_ = tokens;
  span_ = span;
  const auto rows = static_cast<std::size_t>(batch);
  const int positions = conv_->shape().positions();
  const DeviceContext& embedding_context = *placement_.embedding;
  embedding_context.make_current();
  embedding_.forward(embedding_context, tokens, span, batch, embedded_.data());
  conv_input_ = embedding_to_conv_->forward(embedded_.data(), rows * shape_.length * shape_.width);

  const DeviceContext& conv_context = *placement_.conv;
  conv_context.make_current();
  conv_->forward(conv_context, conv_input_, batch, convolved_.data());
  const int convolved = batch * positions * shape_.filters;
  launch_activation_forward(ActivationKind::tanh, convolved_.data(), convolved_.data(), convolved,
                            conv_context.compute_stream());
  pool_input_ = conv_to_pool_->forward(convolved_.data(), static_cast<std::size_t>(convolved));

  const DeviceContext& pool_context = *placement_.pool;
  pool_context.make_current();
  launch_max_over_time(pool_input_, batch, positions, shape_.filters, pooled_.data(), argmax_.data(),
                       pool_context.compute_stream());
  dense_input_ = pool_to_dense_->forward(pooled_.data(), rows * shape_.filters);

  const DeviceContext& dense_context = *placement_.dense;
  dense_context.make_current();
  dense_.forward(dense_context, dense_input_, batch, dense_output_.data());
  launch_activation_forward(ActivationKind::relu, dense_output_.data(), dense_output_.data(),
                            batch * shape_.outputs, dense_context.compute_stream());
}

void TextTower::backward(const float* output_gradient, int batch) {
  const auto rows = static_cast<std::size_t>(batch);
  const int positions = conv_->shape().positions();
  const DeviceContext& dense_context = *placement_.dense;
  dense_context.make_current();
  launch_activation_backward(ActivationKind::relu, dense_output_.data(), output_gradient, dense_gradient_.data(),
                             batch * shape_.outputs, dense_context.compute_stream());
  dense_.backward(dense_context, dense_input_, dense_gradient_.data(), batch, pool_to_dense_->consumer_gradient());
  const float* pooled_gradient = pool_to_dense_->backward(rows * shape_.filters);

  const DeviceContext& pool_context = *placement_.pool;
  pool_context.make_current();
  launch_max_over_time_backward(pooled_gradient, argmax_.data(), batch, positions, shape_.filters,
                                conv_to_pool_->consumer_gradient(), pool_context.compute_stream());
  const int convolved = batch * positions * shape_.filters;
  const float* convolved_gradient = conv_to_pool_->backward(static_cast<std::size_t>(convolved));

  const DeviceContext& conv_context = *placement_.conv;
  conv_context.make_current();
  launch_activation_backward(ActivationKind::tanh, convolved_.data(), convolved_gradient,
                             convolved_gradient_.data(), convolved, conv_context.compute_stream());
  conv_->backward(conv_context, convolved_gradient_.data(), batch, embedding_to_conv_->consumer_gradient());
  const float* embedded_gradient = embedding_to_conv_->backward(rows * shape_.length * shape_.width);

  const DeviceContext& embedding_context = *placement_.embedding;
  embedding_context.make_current();
  embedding_.backward(embedding_context, tokens_, span_, batch, embedded_gradient);
}

}  // namespace gpuprof::workloads
