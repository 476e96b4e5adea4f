#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpuprof::workloads {

// Where each layer's parameters live in one flat array. One flat array per
// replica lets the optimizer, the all-reduce and the host-staged copies each
// treat all parameters as one buffer.
class ParameterLayout {
 public:
  struct Entry {
    std::string name;
    std::size_t offset = 0;  // in floats
    std::size_t count = 0;
  };

  // Returns the new entry's index. Offsets are aligned to 256 bytes, which cuDNN's
  // weight space and vectorised kernels expect.
  std::size_t add(const std::string& name, std::size_t count);

  const Entry& entry(std::size_t index) const { return entries_.at(index); }
  const std::vector<Entry>& entries() const { return entries_; }
  std::size_t total() const { return total_; }

 private:
  std::vector<Entry> entries_;
  std::size_t total_ = 0;
};

// A layer's view of its parameters and their gradients inside the flat arrays. In bf16
// runs, layers that compute in bf16 (cuDNN convolutions and RNNs) also see a bf16 copy of
// their values, refreshed after every update, and a bf16 buffer where they write their
// weight gradients before adding them to the fp32 gradients. Null otherwise.
struct ParameterSlice {
  float* values = nullptr;
  float* gradients = nullptr;
  std::size_t count = 0;
  void* bf16_values = nullptr;
  void* bf16_gradients = nullptr;
};

}  // namespace gpuprof::workloads
