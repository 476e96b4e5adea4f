#pragma once

#include <cstddef>

#include "device_array.hpp"
#include "element_type.hpp"
#include "parameter_layout.hpp"
#include "trainable_model.hpp"

namespace gpuprof::workloads {

// A model's parameters on one GPU as flat arrays laid out by a ParameterLayout: fp32
// values (the master weights) and gradients, plus, in bf16 runs, the bf16 copy of the
// values and the bf16 weight-gradient buffer that bf16 layers use.
class FlatParameters {
 public:
  FlatParameters() = default;
  // Allocates on the current device; values and gradients start at zero.
  FlatParameters(const ParameterLayout& layout, bool bf16_copies);

  ParameterSlice slice(const ParameterLayout::Entry& entry);
  ParameterGroup group(const DeviceContext& context);
  void zero_gradients(cudaStream_t stream) { gradients_.zero(stream); }
  float* values() { return values_.data(); }
  float* gradients() { return gradients_.data(); }
  std::size_t count() const { return values_.size(); }

 private:
  DeviceArray<float> values_;
  DeviceArray<float> gradients_;
  ActivationBuffer bf16_values_;
  ActivationBuffer bf16_gradients_;
};

// values -> bf16_values for a group that has a bf16 copy, on its compute stream.
void refresh_bf16_copy(const ParameterGroup& group);

}  // namespace gpuprof::workloads
