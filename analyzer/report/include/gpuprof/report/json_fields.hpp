#pragma once

// The one set of JSON field writers every gpuprof document uses (report, compare, study, predict, info),
// with one number policy:
// - a number that is not finite (NaN, infinity) is null: JSON has no such number, and 0 would be a lie;
// - `field` rounds a double to 3 decimals, so that the output does not change with the last bits of a sum
//   (every such field is in nanoseconds, bytes, percent or a ratio of them);
// - `exact_field` writes a double unrounded, for figures in SI units (seconds, samples per second, fitted
//   coefficients) where 3 decimals would lose the figure itself (study).
// Strings are written with their length: a name from a file may hold a NUL byte.

#include <rapidjson/writer.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuprof::report::json {

template <typename Writer>
void string(Writer& w, std::string_view text) {
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

template <typename Writer>
void exact_number(Writer& w, double value) {
  if (std::isfinite(value)) w.Double(value); else w.Null();
}

template <typename Writer>
void number(Writer& w, double value) {
  exact_number(w, std::isfinite(value) ? std::round(value * 1000.0) / 1000.0 : value);
}

template <typename Writer>
void key(Writer& w, const char* name) { w.Key(name); }

template <typename Writer>
void field(Writer& w, const char* name, std::int64_t value) { key(w, name), w.Int64(value); }
template <typename Writer>
void field(Writer& w, const char* name, double value) { key(w, name), number(w, value); }
template <typename Writer>
void field(Writer& w, const char* name, std::string_view value) { key(w, name), string(w, value); }

template <typename Writer>
void exact_field(Writer& w, const char* name, double value) { key(w, name), exact_number(w, value); }

// An absent value is null.
template <typename Writer, typename Value>
void optional_field(Writer& w, const char* name, const std::optional<Value>& value) {
  if (value) field(w, name, *value); else key(w, name), w.Null();
}
template <typename Writer>
void optional_exact_field(Writer& w, const char* name, const std::optional<double>& value) {
  if (value) exact_field(w, name, *value); else key(w, name), w.Null();
}

}  // namespace gpuprof::report::json
