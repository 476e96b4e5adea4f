#include "kineto_args.hpp"

#include <string>

#include "kineto_time.hpp"

namespace gpuprof::importers {

std::optional<std::int64_t> number_in(const JsonScalar& value) {
  if (!value.present) return std::nullopt;
  if (!value.is_string) return integer_from_text(value.text);
  const auto digits = value.text.find_last_not_of("0123456789");
  const std::string_view tail = digits == std::string::npos ? std::string_view(value.text)
                                                            : std::string_view(value.text).substr(digits + 1);
  if (tail.empty()) return std::nullopt;
  return integer_from_text(tail);
}

std::optional<std::int64_t> arg_number(const KinetoEvent& event, std::string_view key) {
  const KinetoArg* arg = event.arg(key);
  return arg ? number_in(arg->value) : std::nullopt;
}

}  // namespace gpuprof::importers
