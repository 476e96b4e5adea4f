#include "flat_parameters.hpp"

#include "cuda_check.hpp"

namespace gpuprof::workloads {

FlatParameters::FlatParameters(const ParameterLayout& layout, bool bf16_copies)
    : values_(layout.total(), "model parameters"), gradients_(layout.total(), "parameter gradients") {
  GPUPROF_CHECK(cudaMemset(values_.data(), 0, values_.bytes()));
  GPUPROF_CHECK(cudaMemset(gradients_.data(), 0, gradients_.bytes()));
  if (bf16_copies) {
    bf16_values_ = ActivationBuffer(ElementType::bf16, layout.total(), "bf16 copy of the parameters");
    bf16_gradients_ = ActivationBuffer(ElementType::bf16, layout.total(), "bf16 weight gradients");
  }
  GPUPROF_CHECK(cudaDeviceSynchronize());  // memsets are not ordered with non-blocking streams
}

ParameterSlice FlatParameters::slice(const ParameterLayout::Entry& entry) {
  ParameterSlice slice{values_.data() + entry.offset, gradients_.data() + entry.offset, entry.count};
  if (bf16_values_.size() > 0) {
    const std::size_t offset_bytes = entry.offset * element_bytes(ElementType::bf16);
    slice.bf16_values = static_cast<std::byte*>(bf16_values_.data()) + offset_bytes;
    slice.bf16_gradients = static_cast<std::byte*>(bf16_gradients_.data()) + offset_bytes;
  }
  return slice;
}

ParameterGroup FlatParameters::group(const DeviceContext& context) {
  return ParameterGroup{&context, values_.data(), gradients_.data(), values_.size(),
                        bf16_values_.size() > 0 ? bf16_values_.data() : nullptr};
}

void refresh_bf16_copy(const ParameterGroup& group) {
  if (group.bf16_values == nullptr) return;
  group.context->make_current();
  launch_round_to_bf16(group.values, group.bf16_values, static_cast<long long>(group.count),
                       group.context->compute_stream());
}

}  // namespace gpuprof::workloads
