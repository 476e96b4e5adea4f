#pragma once

// Which kernels are communication and which are computation (DESIGN.md,
// "Communication kernel"), with the rule that decided, so reports can show
// it. Decided once per distinct name, not per row.

#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

enum class KernelCategory : std::uint8_t { computation, communication };

struct NameClasses {
  std::vector<KernelCategory> categories;  // one per StringId of model.strings
  std::vector<std::string> rules;          // the rule for each communication name; empty otherwise
};

class KernelClassifier {
 public:
  // Throws TraceError::bad_input when a pattern is not a valid regex.
  explicit KernelClassifier(const std::vector<std::string>& comm_patterns = {});

  // By name alone (built-in name rules, then --comm-pattern); the rule, or empty for computation.
  std::string comm_rule(std::string_view name) const;
  KernelCategory classify(std::string_view name) const;
  // Every kernel name of `model`, the structural rule (launched by a communication library call) included.
  NameClasses classify_model(const trace::TraceModel& model) const;
  // The same with the caller's index of `model.api_calls`.
  NameClasses classify_model(const trace::TraceModel& model, const CorrelationIndex& correlations) const;
  // classify_model(model).categories.
  std::vector<KernelCategory> classify_names(const trace::TraceModel& model) const;

 private:
  std::vector<std::pair<std::string, std::regex>> patterns_;
};

std::string_view to_string(KernelCategory category);

// Memcpy kinds that move data between two GPUs.
bool is_device_to_device(trace::CopyKind kind);

}  // namespace gpuprof::analysis
