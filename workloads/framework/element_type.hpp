#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include "device_array.hpp"

namespace gpuprof::workloads {

// How activations are stored. bf16 runs keep fp32 master weights, optimizer state and
// gradients, but store the activations of cuDNN layers (convolutions, batch norm,
// pooling, recurrent layers) in bf16, which is what cuDNN's bf16 tensor-core kernels read.
enum class ElementType { fp32, bf16 };

constexpr std::size_t element_bytes(ElementType type) { return type == ElementType::bf16 ? 2 : 4; }
cudnnDataType_t cudnn_data_type(ElementType type);

// A device array whose element type is chosen at run time (by --precision).
class ActivationBuffer {
 public:
  ActivationBuffer() = default;
  ActivationBuffer(ElementType type, std::size_t count, const std::string& what)
      : type_(type), count_(count), bytes_(count * element_bytes(type), what) {}

  void* data() { return bytes_.data(); }
  const void* data() const { return bytes_.data(); }
  ElementType type() const { return type_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return bytes_.bytes(); }

 private:
  ElementType type_ = ElementType::fp32;
  std::size_t count_ = 0;
  DeviceArray<std::byte> bytes_;
};

// Conversions between the fp32 world (input batches, master weights, gradients, the
// dense layers) and bf16 storage. Rounding to bf16 is round-to-nearest-even.
void launch_round_to_bf16(const float* source, void* bf16_target, long long count, cudaStream_t stream);
void launch_widen_from_bf16(const void* bf16_source, float* target, long long count, cudaStream_t stream);
// target[i] += float(bf16_source[i]): a bf16 layer's weight gradient into the fp32 gradients.
void launch_add_bf16_into(float* target, const void* bf16_source, long long count, cudaStream_t stream);
// Copies `count` elements into `target` of type `type`, from fp32 (converting when bf16).
void launch_store_as(ElementType type, const float* source, void* target, long long count, cudaStream_t stream);
// Copies `count` elements of type `type` into fp32 `target` (converting when bf16).
void launch_load_from(ElementType type, const void* source, float* target, long long count, cudaStream_t stream);

}  // namespace gpuprof::workloads
