#include "tensor_layout.hpp"

#include "cuda_check.hpp"

namespace gpuprof::workloads {
namespace {

// Packed strides of N, C, H, W (or K, C, R, S) with channels innermost or outermost after N.
StridedShape packed(std::int64_t n, std::int64_t c, std::int64_t h, std::int64_t w, bool channels_last) {
  StridedShape layout{{n, c, h, w}, {}};
  if (channels_last) {
    layout.strides = {h * w * c, 1, w * c, c};
  } else {
    layout.strides = {c * h * w, h * w, w, 1};
  }
  return layout;
}

}  // namespace

StridedShape image_layout(const ImageShape& shape) {
  return packed(shape.batch, shape.channels, shape.height, shape.width, shape.channels_last);
}

StridedShape filter_layout(int outputs, int inputs, int kernel, bool channels_last) {
  return packed(outputs, inputs, kernel, kernel, channels_last);
}

bool is_packed(const StridedShape& layout, bool channels_last) {
  const auto& d = layout.dimensions;
  return layout.strides == packed(d[0], d[1], d[2], d[3], channels_last).strides;
}

StridedShape described_layout(const TensorDescriptor& descriptor) {
  cudnnDataType_t type{};
  std::array<int, 4> d{};
  std::array<int, 4> s{};
  GPUPROF_CHECK(cudnnGetTensor4dDescriptor(descriptor.get(), &type, &d[0], &d[1], &d[2], &d[3], &s[0], &s[1], &s[2],
                                           &s[3]));
  StridedShape layout;
  for (std::size_t i = 0; i < 4; ++i) {
    layout.dimensions[i] = d[i];
    layout.strides[i] = s[i];
  }
  return layout;
}

}  // namespace gpuprof::workloads
