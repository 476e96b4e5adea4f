#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

namespace gpuprof::analysis {

// The step pattern (--step-pattern) applied to annotation names. The default
// pattern is matched by hand in time linear in the name, whatever its length;
// any other pattern by std::regex within kMaxRegexSubjectBytes (bounded_regex.hpp).
class StepPattern {
 public:
  // Throws TraceError::bad_input when `pattern` is not a valid ECMAScript regex.
  explicit StepPattern(const std::string& pattern);

  // nullopt when `name` is no step; otherwise its number (group 1), or
  // kNoStepNumber when the pattern has no number for it.
  std::optional<std::int64_t> match(std::string_view name) const;

 private:
  bool is_default_ = false;
  std::regex regex_;
};

}  // namespace gpuprof::analysis
