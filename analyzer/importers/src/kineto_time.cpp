#include "kineto_time.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace gpuprof::importers {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Exponent notation is rare in traces; a double is exact enough for it.
std::optional<std::int64_t> via_double(std::string_view text, double scale) {
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || !std::isfinite(value)) return std::nullopt;
  const double scaled = std::round(value * scale);
  if (std::fabs(scaled) >= 9.2e18) return std::nullopt;
  return static_cast<std::int64_t>(scaled);
}

}  // namespace

namespace {

// Plain decimal microseconds ("1694128201435418", "4458676522690.655") to
// nanoseconds; nullopt for anything else, exponent notation included.
std::optional<std::int64_t> decimal_microseconds_to_ns(std::string_view text) {
  bool negative = false;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') negative = true, ++i;
  std::int64_t whole = 0;
  std::size_t digits = 0;
  for (; i < text.size() && is_digit(text[i]); ++i, ++digits) {
    if (whole > (kMax / 10 - 9) / 1000) return std::nullopt;
    whole = whole * 10 + (text[i] - '0');
  }
  if (digits == 0) return std::nullopt;
  std::int64_t nanoseconds = whole * 1000;
  if (i < text.size() && text[i] == '.') {
    ++i;
    std::int64_t scale = 100;
    bool round_up = false;
    std::size_t fraction_digits = 0;
    for (; i < text.size() && is_digit(text[i]); ++i, ++fraction_digits) {
      const int digit = text[i] - '0';
      if (scale > 0) {
        nanoseconds += digit * scale;
        scale /= 10;
      } else if (fraction_digits == 3) {
        round_up = digit >= 5;
      }
    }
    if (fraction_digits == 0) return std::nullopt;
    if (round_up) ++nanoseconds;
  }
  if (i != text.size()) return std::nullopt;
  return negative ? -nanoseconds : nanoseconds;
}

}  // namespace

std::optional<std::int64_t> microseconds_text_to_ns(std::string_view text) {
  // Exponent notation is rare, so it is looked for only when the decimal reading fails
  // (it cannot succeed on text holding an 'e').
  if (const auto exact = decimal_microseconds_to_ns(text)) return exact;
  if (text.find_first_of("eE") != std::string_view::npos) return via_double(text, 1000.0);
  return std::nullopt;
}

std::optional<std::int64_t> integer_from_text(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc()) return std::nullopt;
  std::string_view rest(end, static_cast<std::size_t>(text.data() + text.size() - end));
  if (rest.empty()) return value;
  if (rest.front() != '.') return std::nullopt;
  for (const char c : rest.substr(1)) {
    if (c != '0') return std::nullopt;
  }
  return value;
}

}  // namespace gpuprof::importers
