#pragma once

#include <span>

#include "dense_layer.hpp"
#include "device_array.hpp"
#include "device_context.hpp"
#include "parameter_layout.hpp"

namespace gpuprof::workloads {

struct Conv1dShape {
  int length = 0;   // input positions
  int width = 0;    // input channels (embedding width)
  int filters = 0;
  int kernel = 0;   // positions per window
  int positions() const { return length - kernel + 1; }
};

// A 1-D convolution without padding, [batch][length][width] -> [batch][positions][filters].
// The input is unfolded into windows and multiplied by the filters with cuBLAS: the
// windows buffer costs `kernel` times the input's memory but the product runs on tensor cores.
// Filters are [filters][kernel][width] with a bias per filter (a DenseLayer on the windows).
class Conv1dLayer {
 public:
  // Allocates the windows buffers on the current device.
  Conv1dLayer(const Conv1dShape& shape, int max_batch);

  std::size_t parameter_count() const { return dense_.parameter_count(); }
  void bind(ParameterSlice slice) { dense_.bind(slice); }
  // PyTorch's Conv1d default: uniform in +-1/sqrt(kernel * width).
  void initialize(std::span<float> values, DeterministicRandom& random) const { dense_.initialize(values, random); }

  void forward(const DeviceContext& context, const float* input, int batch, float* output);
  // Adds the filter gradients; writes dL/dinput when input_gradient is not null.
  // Uses the windows of the last forward call.
  void backward(const DeviceContext& context, const float* output_gradient, int batch, float* input_gradient);

  const Conv1dShape& shape() const { return shape_; }

 private:
  Conv1dShape shape_;
  DenseLayer dense_;
  DeviceArray<float> windows_;
  DeviceArray<float> windows_gradient_;
};

}  // namespace gpuprof::workloads
