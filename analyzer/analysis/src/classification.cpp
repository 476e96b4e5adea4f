#include "gpuprof/analysis/classification.hpp"

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::analysis {

KernelClassifier::KernelClassifier(const std::vector<std::string>& comm_patterns) {
  for (const auto& pattern : comm_patterns) {
    try {
      patterns_.emplace_back(pattern, std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error& error) {
      throw TraceError::bad_input("", "invalid --comm-pattern '" + pattern + "': " + error.what());
    }
  }
}

KernelCategory KernelClassifier::classify(std::string_view name) const {
  // `ncclDevKernel` and `ncclKernel` both start with `nccl`; listed in DESIGN.md for clarity.
  if (name.starts_with("nccl")) return KernelCategory::communication;
  for (const auto& pattern : patterns_) {
    if (std::regex_search(name.begin(), name.end(), pattern)) return KernelCategory::communication;
  }
  return KernelCategory::computation;
}

std::vector<KernelCategory> KernelClassifier::classify_names(const trace::TraceModel& model) const {
  // Only names that kernels use are classified: regexes over every string would be wasted work.
  std::vector<KernelCategory> categories(model.strings.size(), KernelCategory::computation);
  std::vector<bool> seen(model.strings.size(), false);
  for (const auto id : model.kernels.name) {
    if (id >= seen.size() || seen[id]) continue;
    seen[id] = true;
    categories[id] = classify(model.strings[id]);
  }
  return categories;
}

std::string_view to_string(KernelCategory category) {
  return category == KernelCategory::communication ? "communication" : "computation";
}

bool is_device_to_device(trace::CopyKind kind) {
  return kind == trace::CopyKind::peer_to_peer || kind == trace::CopyKind::device_to_device;
}

}  // namespace gpuprof::analysis
