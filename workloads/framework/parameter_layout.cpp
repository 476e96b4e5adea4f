#include "parameter_layout.hpp"

namespace gpuprof::workloads {
namespace {
constexpr std::size_t alignment_floats = 64;  // 256 bytes
}

std::size_t ParameterLayout::add(const std::string& name, std::size_t count) {
  const std::size_t offset = (total_ + alignment_floats - 1) / alignment_floats * alignment_floats;
  entries_.push_back(Entry{name, offset, count});
  total_ = offset + count;
  return entries_.size() - 1;
}

}  // namespace gpuprof::workloads
