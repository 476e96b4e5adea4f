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

// A layer's view of its parameters and their gradients inside the flat arrays.
struct ParameterSlice {
  float* values = nullptr;
  float* gradients = nullptr;
  std::size_t count = 0;
};

}  // namespace gpuprof::workloads
