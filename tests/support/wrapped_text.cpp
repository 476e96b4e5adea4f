#include "wrapped_text.hpp"

namespace gpuprof::testing {

std::string joined_wrapped_lines(std::string_view text) {
  constexpr std::string_view kContinuation = "\n    ";
  std::string joined;
  joined.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.substr(i, kContinuation.size()) == kContinuation) {
      joined += ' ';
      i += kContinuation.size() - 1;
    } else {
      joined += text[i];
    }
  }
  return joined;
}

}  // namespace gpuprof::testing
