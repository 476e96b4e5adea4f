#include "conv1d_layer.hpp"

#include "towers_kernels.hpp"

namespace gpuprof::workloads {

Conv1dLayer::Conv1dLayer(const Conv1dShape& shape, int max_batch)
    : shape_(shape), dense_(shape.kernel * shape.width, shape.filters) {
  const std::size_t windows = static_cast<std::size_t>(max_batch) * shape.positions() * shape.kernel * shape.width;
  windows_ = DeviceArray<float>(windows, "convolution windows");
  windows_gradient_ = DeviceArray<float>(windows, "convolution window gradients");
}

void Conv1dLayer::forward(const DeviceContext& context, const float* input, int batch, float* output) {
  launch_unfold_windows(input, batch, shape_.length, shape_.width, shape_.kernel, windows_.data(),
                        context.compute_stream());
  dense_.forward(context, windows_.data(), batch * shape_.positions(), output);
}

void Conv1dLayer::backward(const DeviceContext& context, const float* output_gradient, int batch,
                           float* input_gradient) {
  const int rows = batch * shape_.positions();
  dense_.backward(context, windows_.data(), output_gradient, rows,
                  input_gradient != nullptr ? windows_gradient_.data() : nullptr);
  if (input_gradient != nullptr) {
    launch_fold_window_gradients(windows_gradient_.data(), batch, shape_.length, shape_.width, shape_.kernel,
                                 input_gradient, context.compute_stream());
  }
}

}  // namespace gpuprof::workloads
