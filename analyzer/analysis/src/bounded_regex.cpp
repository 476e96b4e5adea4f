#include "gpuprof/analysis/bounded_regex.hpp"

namespace gpuprof::analysis {

bool bounded_regex_search(std::string_view text, const std::regex& regex, NameMatch& match) {
  if (text.size() > kMaxRegexSubjectBytes) return false;
  return std::regex_search(text.begin(), text.end(), match, regex);
}

bool bounded_regex_search(std::string_view text, const std::regex& regex) {
  NameMatch match;
  return bounded_regex_search(text, regex, match);
}

}  // namespace gpuprof::analysis
