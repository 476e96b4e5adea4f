#include "gpuprof/analysis/step_pattern.hpp"

#include <charconv>

#include "gpuprof/analysis/analysis_options.hpp"
#include "gpuprof/analysis/bounded_regex.hpp"
#include "gpuprof/analysis/step_windows.hpp"

namespace gpuprof::analysis {
namespace {

std::int64_t step_number(std::string_view digits) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return error == std::errc() && end == digits.data() + digits.size() ? value : kNoStepNumber;
}

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// The default pattern, ^(?:ProfilerStep#|[Ss]tep[ _#]?|[Bb]atch[ _#]?)(\d+)$, by hand.
std::optional<std::string_view> default_step_digits(std::string_view name) {
  if (name.starts_with("ProfilerStep#")) {
    name.remove_prefix(13);
  } else if (name.size() >= 4 && (name[0] == 'S' || name[0] == 's') && name.substr(1, 3) == "tep") {
    name.remove_prefix(4);
    if (!name.empty() && (name[0] == ' ' || name[0] == '_' || name[0] == '#')) name.remove_prefix(1);
  } else if (name.size() >= 5 && (name[0] == 'B' || name[0] == 'b') && name.substr(1, 4) == "atch") {
    name.remove_prefix(5);
    if (!name.empty() && (name[0] == ' ' || name[0] == '_' || name[0] == '#')) name.remove_prefix(1);
  } else {
    return std::nullopt;
  }
  if (!all_digits(name)) return std::nullopt;
  return name;
}

}  // namespace

StepPattern::StepPattern(const std::string& pattern) : is_default_(pattern == kDefaultStepPattern) {
  if (is_default_) return;
  regex_ = compile_user_regex(pattern, "--step-pattern");
}

std::optional<std::int64_t> StepPattern::match(std::string_view name) const {
  if (is_default_) {
    const auto digits = default_step_digits(name);
    if (!digits) return std::nullopt;
    return step_number(*digits);
  }
  NameMatch found;
  if (!bounded_regex_search(name, regex_, found)) return std::nullopt;
  if (found.size() > 1 && found[1].matched) {
    const auto offset = static_cast<std::size_t>(found[1].first - name.begin());
    return step_number(name.substr(offset, static_cast<std::size_t>(found[1].length())));
  }
  return kNoStepNumber;
}

}  // namespace gpuprof::analysis
