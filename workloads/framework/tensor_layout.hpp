#pragma once

#include <array>
#include <cstdint>

#include "cudnn_descriptors.hpp"

namespace gpuprof::workloads {

// A 4-D tensor as cuDNN's graph API describes it: dimensions always in N, C, H, W order
// (filters: K, C, R, S) and the layout carried by the strides alone, in elements.
struct StridedShape {
  std::array<std::int64_t, 4> dimensions{};
  std::array<std::int64_t, 4> strides{};
};

// An image tensor in its shape's layout: NHWC (channels_last) has stride 1 on C, NCHW on W.
StridedShape image_layout(const ImageShape& shape);

// Filters laid out as FilterDescriptor lays them: KRSC when channels_last, else KCRS.
StridedShape filter_layout(int outputs, int inputs, int kernel, bool channels_last);

// Whether `layout` is NHWC (channels_last) or NCHW, packed: what the legacy descriptors
// were given must be what cuDNN reports (checked on CPU against cudnnGetTensor4dDescriptor).
bool is_packed(const StridedShape& layout, bool channels_last);

// The dimensions and strides a legacy tensor descriptor holds (cudnnGetTensor4dDescriptor).
StridedShape described_layout(const TensorDescriptor& descriptor);

}  // namespace gpuprof::workloads
