#include "gpuprof/analysis/kernel_names.hpp"

#include "deep_demangle.hpp"
#include "gpuprof/trace/symbol_names.hpp"

namespace gpuprof::analysis {
namespace {

constexpr std::string_view kAnonymous = "(anonymous namespace)";

// The characters outside every <...>, (...) and {...}, i.e. the qualified
// name and return type without template arguments or parameters.
std::string top_level_text(std::string_view name) {
  std::string text;
  int depth = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name.substr(i).starts_with(kAnonymous)) {
      i += kAnonymous.size() - 1;  // a namespace, not a parameter list
      if (depth == 0) text += "anonymous";
      continue;
    }
    const char c = name[i];
    if (c == '<' || c == '(' || c == '{' || c == '[') {
      ++depth;
    } else if (c == '>' || c == ')' || c == '}' || c == ']') {
      depth = depth > 0 ? depth - 1 : 0;  // unbalanced input is not an error
    } else if (depth == 0) {
      text += c;
    }
  }
  return text;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  return text;
}

}  // namespace

std::string readable_kernel_name(std::string_view name) {
  auto readable = trace::demangle_symbol(name);
  if (!trace::is_mangled_symbol(readable)) return readable;
  return demangle_without_recursion_limit(name).value_or(std::move(readable));
}

std::string short_kernel_name(std::string_view name) {
  const std::string readable = readable_kernel_name(name);
  // Nothing demangles it: a report still never shows `_Z…` (DESIGN.md, "Kernel names").
  if (trace::is_mangled_symbol(readable)) {
    auto identifier = innermost_identifier(readable);
    return identifier.empty() ? std::string("(undemangled kernel)") : identifier;
  }
  const std::string text = top_level_text(readable);
  std::string_view base = trim(text);
  // `void ns::kernel`: the return type is separated by a space; `ns::kernel` by `::`.
  if (const auto space = base.rfind(' '); space != std::string_view::npos) base = base.substr(space + 1);
  if (const auto scope = base.rfind("::"); scope != std::string_view::npos) base = base.substr(scope + 2);
  return base.empty() ? readable : std::string(base);
}

}  // namespace gpuprof::analysis
