#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuprof::importers {

// Converts a JSON number of microseconds, as written ("1694128201435418",
// "4458676522690.655", "1.5e3"), to integer nanoseconds rounded half away from
// zero. Works on the decimal text so that large timestamps keep every
// nanosecond a double would lose. nullopt when the text is not a number or
// does not fit.
std::optional<std::int64_t> microseconds_text_to_ns(std::string_view text);

// Parses a JSON integer (or a number with only zeros after the point).
std::optional<std::int64_t> integer_from_text(std::string_view text);

}  // namespace gpuprof::importers
