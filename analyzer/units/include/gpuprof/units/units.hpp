#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace gpuprof::units {

// "812 ns", "45.6 us", "12.3 ms", "1.234 s": three significant digits, ASCII only
// so that terminals, CSV and Markdown all show it the same.
std::string format_duration(std::int64_t nanoseconds);

// total += value, stopping at the int64 limits instead of wrapping: times and
// byte counts from a hostile file may each be near INT64_MAX, and a sum of them
// must never come out negative in a report.
inline void add_saturating(std::int64_t& total, std::int64_t value) {
  if (__builtin_add_overflow(total, value, &total)) {
    total = value > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
  }
}
// "512 B", "1.50 KiB", "8.00 MiB", "79.6 GiB".
std::string format_bytes(std::int64_t bytes);
// Achieved bandwidth in GB/s (10^9 bytes per second), 0 when the time is 0.
double gigabytes_per_second(std::int64_t bytes, std::int64_t nanoseconds);

}  // namespace gpuprof::units
