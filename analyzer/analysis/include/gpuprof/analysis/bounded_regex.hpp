#pragma once

#include <cstddef>
#include <regex>
#include <string>
#include <string_view>

namespace gpuprof::analysis {

// libstdc++'s std::regex matches by recursion, a few frames per character of
// the subject, so a pattern such as `(\d+)` over a 30,000-character name from a
// trace file overflows the stack. A user's regex (--step-pattern,
// --comm-pattern) is therefore never run over a name longer than this; such a
// name does not match it. Real step and kernel names are far shorter, except
// some template-heavy kernel names, which the built-in rules still classify.
inline constexpr std::size_t kMaxRegexSubjectBytes = 4096;

// A user's ECMAScript regex, compiled; throws TraceError::bad_input naming
// `option` when it is invalid, including a reversed range such as [z-a], which
// libstdc++ accepts silently as a class that matches nothing.
std::regex compile_user_regex(const std::string& pattern, std::string_view option,
                              std::regex::flag_type flags = std::regex::ECMAScript);

using NameMatch = std::match_results<std::string_view::const_iterator>;

// std::regex_search over `text`, or false without running it when `text` is
// longer than kMaxRegexSubjectBytes.
bool bounded_regex_search(std::string_view text, const std::regex& regex, NameMatch& match);
bool bounded_regex_search(std::string_view text, const std::regex& regex);

}  // namespace gpuprof::analysis
