#pragma once

// Which kernels are communication and which are computation (DESIGN.md,
// "Communication kernel"). Decided once per distinct name, not per row.

#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

enum class KernelCategory : std::uint8_t { computation, communication };

class KernelClassifier {
 public:
  // Throws TraceError::bad_input when a pattern is not a valid regex.
  explicit KernelClassifier(const std::vector<std::string>& comm_patterns = {});

  KernelCategory classify(std::string_view name) const;
  // One category per StringId of `model.strings`.
  std::vector<KernelCategory> classify_names(const trace::TraceModel& model) const;

 private:
  std::vector<std::regex> patterns_;
};

std::string_view to_string(KernelCategory category);

// Memcpy kinds that move data between two GPUs.
bool is_device_to_device(trace::CopyKind kind);

}  // namespace gpuprof::analysis
