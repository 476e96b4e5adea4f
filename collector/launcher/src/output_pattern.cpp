#include "gpuprof/launcher/output_pattern.hpp"

#include <unistd.h>

#include <array>
#include <cstdlib>
#include <stdexcept>

namespace gpuprof::launcher {
namespace {

// Scans the pattern once, calling `on_placeholder` for each placeholder letter
// (with the variable name for %q) and `on_text` for literal text.
template <typename OnText, typename OnPlaceholder>
void scan_pattern(std::string_view pattern, OnText&& on_text, OnPlaceholder&& on_placeholder) {
  std::size_t position = 0;
  while (position < pattern.size()) {
    const auto percent = pattern.find('%', position);
    if (percent == std::string_view::npos) {
      on_text(pattern.substr(position));
      return;
    }
    on_text(pattern.substr(position, percent - position));
    if (percent + 1 >= pattern.size()) throw std::invalid_argument("output pattern ends with a lone '%'");
    const char letter = pattern[percent + 1];
    position = percent + 2;
    std::string_view variable;
    if (letter == 'q') {
      const auto close = pattern.find('}', position);
      if (position >= pattern.size() || pattern[position] != '{' || close == std::string_view::npos) {
        throw std::invalid_argument("output pattern: %q must be followed by {VARIABLE}");
      }
      variable = pattern.substr(position + 1, close - position - 1);
      position = close + 1;
    } else if (letter != 'p' && letter != 'h' && letter != 'n' && letter != '%') {
      throw std::invalid_argument(std::string("output pattern: unknown placeholder %") + letter +
                                  " (use %p, %h, %q{VAR}, %n or %%)");
    }
    on_placeholder(letter, variable);
  }
}

bool contains_placeholder(std::string_view pattern, std::string_view letters) {
  bool found = false;
  scan_pattern(pattern, [](std::string_view) {},
               [&](char letter, std::string_view) { found |= letters.find(letter) != std::string_view::npos; });
  return found;
}

}  // namespace

std::string expand_output_pattern(std::string_view pattern, const PatternContext& context) {
  std::string result;
  scan_pattern(
      pattern, [&](std::string_view text) { result += text; },
      [&](char letter, std::string_view variable) {
        switch (letter) {
          case 'p': result += std::to_string(context.pid); break;
          case 'h': result += context.host; break;
          case 'n': result += std::to_string(context.number); break;
          case '%': result += '%'; break;
          case 'q':
            if (context.environment) result += context.environment(std::string(variable)).value_or("");
            break;
          default: break;
        }
      });
  return result;
}

bool has_number_placeholder(std::string_view pattern) { return contains_placeholder(pattern, "n"); }
bool is_per_process(std::string_view pattern) { return contains_placeholder(pattern, "pn"); }

PatternContext current_process_context() {
  PatternContext context;
  context.pid = ::getpid();
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) == 0) context.host = host.data();
  if (context.host.empty()) context.host = "localhost";
  context.environment = [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
  return context;
}

}  // namespace gpuprof::launcher
