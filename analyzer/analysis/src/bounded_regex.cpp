#include "gpuprof/analysis/bounded_regex.hpp"

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::analysis {
namespace {

// libstdc++ compiles a pattern by recursive descent, a few frames per
// character: a 100,000-character --step-pattern overflowed the stack (issue 40).
// Real patterns are a few dozen characters.
constexpr std::size_t kMaxRegexPatternBytes = 1024;

// The first range inside a bracket expression whose ends are plain characters in
// the wrong order, or empty. Escaped characters and class escapes (\d) are never
// range ends here: std::regex judges those itself.
std::string reversed_range(std::string_view pattern) {
  bool in_class = false;
  for (std::size_t at = 0; at < pattern.size(); ++at) {
    const char c = pattern[at];
    if (c == '\\') {
      ++at;
      continue;
    }
    if (!in_class) {
      in_class = c == '[';
      continue;
    }
    if (c == ']') {
      in_class = false;
    } else if (at + 2 < pattern.size() && pattern[at + 1] == '-' && pattern[at + 2] != ']' &&
               pattern[at + 2] != '\\' && pattern[at + 2] < c) {
      return std::string(pattern.substr(at, 3));
    }
  }
  return {};
}

}  // namespace

std::regex compile_user_regex(const std::string& pattern, std::string_view option, std::regex::flag_type flags) {
  if (pattern.size() > kMaxRegexPatternBytes) {
    throw TraceError::bad_input("", std::string(option) + ": a pattern of " + std::to_string(pattern.size()) +
                                        " characters; at most " + std::to_string(kMaxRegexPatternBytes) +
                                        " are taken (write a shorter pattern)");
  }
  const auto invalid = [&](const std::string& why) {
    return TraceError::bad_input("", "invalid " + std::string(option) + " '" + pattern + "': " + why);
  };
  if (const auto range = reversed_range(pattern); !range.empty()) {
    throw invalid("the range " + range + " is out of order");
  }
  try {
    return std::regex(pattern, flags);
  } catch (const std::regex_error& error) {
    throw invalid(error.what());
  }
}

bool bounded_regex_search(std::string_view text, const std::regex& regex, NameMatch& match) {
  if (text.size() > kMaxRegexSubjectBytes) return false;
  return std::regex_search(text.begin(), text.end(), match, regex);
}

bool bounded_regex_search(std::string_view text, const std::regex& regex) {
  NameMatch match;
  return bounded_regex_search(text, regex, match);
}

}  // namespace gpuprof::analysis
