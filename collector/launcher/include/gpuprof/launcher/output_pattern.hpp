#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace gpuprof::launcher {

inline constexpr std::string_view kDefaultOutputPattern = "gpuprof_%h_%p.sqlite";

// What a pattern's placeholders stand for in one process.
struct PatternContext {
  std::int64_t pid = 0;
  std::string host;
  // Looks up an environment variable; nullopt when unset (expands to nothing).
  std::function<std::optional<std::string>(const std::string&)> environment;
  // The value of %n; a pattern with %n is expanded once per candidate number.
  std::int64_t number = 1;
};

// Expands %p (pid), %h (host name), %q{VAR} (environment variable), %n (number)
// and %% (a percent sign). Throws std::invalid_argument for an unknown
// placeholder or an unclosed %q{.
std::string expand_output_pattern(std::string_view pattern, const PatternContext& context);

bool has_number_placeholder(std::string_view pattern);
// True when two processes expanding the pattern may get different names
// (%p or %n), so the launcher cannot know the final name before the program runs.
bool is_per_process(std::string_view pattern);

// The context of the calling process: getpid(), gethostname(), getenv().
PatternContext current_process_context();

}  // namespace gpuprof::launcher
