#include "deep_demangle.hpp"

#include <cctype>
#include <cstdlib>
#include <memory>

#ifdef GPUPROF_HAVE_LIBIBERTY
#include <demangle.h>
#endif

namespace gpuprof::analysis {
namespace {

// Without the recursion limit the demangler recurses once per nesting level: each level takes at least two
// characters, so this bounds the depth (and the stack) while holding the longest real kernel names.
constexpr std::size_t kLongestUnlimitedInput = 16 * 1024;

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Reads a <source-name> (<length><identifier>) at `pos`; empty and `pos` unchanged when there is none.
std::string_view source_name(std::string_view text, std::size_t& pos) {
  std::size_t end = pos, length = 0;
  while (end < text.size() && digit(text[end]) && length < text.size()) length = length * 10 + (text[end++] - '0');
  if (end == pos || length == 0 || end + length > text.size()) return {};
  pos = end + length;
  return text.substr(end, length);
}

}  // namespace

std::optional<std::string> demangle_without_recursion_limit(std::string_view mangled) {
#ifdef GPUPROF_HAVE_LIBIBERTY
  if (mangled.size() > kLongestUnlimitedInput || mangled.find('\0') != std::string_view::npos) return std::nullopt;
  const std::string input(mangled.starts_with("__Z") ? mangled.substr(1) : mangled);
  const std::unique_ptr<char, decltype(&std::free)> result(
      cplus_demangle(input.c_str(), DMGL_PARAMS | DMGL_ANSI | DMGL_TYPES | DMGL_NO_RECURSE_LIMIT), &std::free);
  if (result == nullptr) return std::nullopt;
  return std::string(result.get());
#else
  (void)mangled;
  return std::nullopt;
#endif
}

std::string innermost_identifier(std::string_view mangled) {
  auto text = mangled.substr(mangled.starts_with("__Z") ? 3 : mangled.starts_with("_Z") ? 2 : 0);
  std::size_t pos = 0;
  if (text.empty() || text[0] != 'N') return std::string(source_name(text, pos));  // `_Z6kernelPf`
  // A nested name: the identifiers at its top level, template arguments (and anything else closed by E)
  // skipped; the last one is the function's own name.
  std::string_view last;
  int depth = 0;
  for (pos = 1; pos < text.size();) {
    const char c = text[pos];
    if (digit(c)) {
      const auto name = source_name(text, pos);
      if (name.empty()) break;
      if (depth == 0) last = name;
    } else if (c == 'L') {  // a literal, `Li128E`: its digits are a value, not a name's length
      const auto end = text.find('E', pos);
      if (end == std::string_view::npos) break;
      pos = end + 1;
    } else if (c == 'I' || c == 'N' || c == 'X' || c == 'J') {
      ++depth, ++pos;
    } else if (c == 'E') {
      if (depth-- == 0) break;
      ++pos;
    } else {
      ++pos;
    }
  }
  return std::string(last);
}

}  // namespace gpuprof::analysis
