#pragma once

// The report JSON's field writers, shared by the files that write its parts.

#include <cmath>
#include <cstdint>
#include <string_view>

#include "json_idle.hpp"

namespace gpuprof::report::json {

inline void key(JsonWriter& w, const char* name) { w.Key(name); }
inline void string(JsonWriter& w, std::string_view text) {
  w.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}
inline void field(JsonWriter& w, const char* name, std::int64_t value) { key(w, name), w.Int64(value); }
// Rounded to 3 decimals so the output does not change with the last bits of a sum.
inline void field(JsonWriter& w, const char* name, double value) {
  key(w, name);
  w.Double(std::isfinite(value) ? std::round(value * 1000.0) / 1000.0 : 0.0);
}
inline void field(JsonWriter& w, const char* name, std::string_view value) { key(w, name), string(w, value); }

}  // namespace gpuprof::report::json
