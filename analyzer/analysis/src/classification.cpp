#include "gpuprof/analysis/classification.hpp"

#include "gpuprof/analysis/bounded_regex.hpp"
#include "gpuprof/analysis/comm_rules.hpp"

namespace gpuprof::analysis {

KernelClassifier::KernelClassifier(const std::vector<std::string>& comm_patterns) {
  for (const auto& pattern : comm_patterns) {
    patterns_.emplace_back(pattern,
                           compile_user_regex(pattern, "--comm-pattern", std::regex::ECMAScript | std::regex::optimize));
  }
}

std::string KernelClassifier::comm_rule(std::string_view name) const {
  if (auto rule = builtin_comm_rule(name)) return *rule;
  for (const auto& [text, pattern] : patterns_) {
    if (bounded_regex_search(name, pattern)) return "--comm-pattern '" + text + "'";
  }
  return {};
}

KernelCategory KernelClassifier::classify(std::string_view name) const {
  return comm_rule(name).empty() ? KernelCategory::computation : KernelCategory::communication;
}

NameClasses KernelClassifier::classify_model(const trace::TraceModel& model) const {
  return classify_model(model, CorrelationIndex(model.api_calls));
}

NameClasses KernelClassifier::classify_model(const trace::TraceModel& model,
                                             const CorrelationIndex& correlations) const {
  // Only names that kernels use are classified: regexes over every string would be wasted work.
  NameClasses classes;
  classes.categories.assign(model.strings.size(), KernelCategory::computation);
  classes.rules.assign(model.strings.size(), {});
  auto launched = launched_by_comm_call(model, correlations);
  std::vector<bool> seen(model.strings.size(), false);
  for (const auto id : model.kernels.name) {
    if (id >= seen.size() || seen[id]) continue;
    seen[id] = true;
    auto rule = comm_rule(model.strings[id]);
    if (rule.empty() && id < launched.size()) rule = std::move(launched[id]);
    if (rule.empty()) continue;
    classes.categories[id] = KernelCategory::communication;
    classes.rules[id] = std::move(rule);
  }
  return classes;
}

std::vector<KernelCategory> KernelClassifier::classify_names(const trace::TraceModel& model) const {
  return classify_model(model).categories;
}

std::string_view to_string(KernelCategory category) {
  return category == KernelCategory::communication ? "communication" : "computation";
}

bool is_device_to_device(trace::CopyKind kind) {
  return kind == trace::CopyKind::peer_to_peer || kind == trace::CopyKind::device_to_device;
}

}  // namespace gpuprof::analysis
