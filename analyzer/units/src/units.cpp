#include "gpuprof/units/units.hpp"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace gpuprof::units {

std::string format_duration(std::int64_t nanoseconds) {
  const double magnitude = std::fabs(static_cast<double>(nanoseconds));
  const auto value = static_cast<double>(nanoseconds);
  if (magnitude < 1e3) return fmt::format("{} ns", nanoseconds);
  if (magnitude < 1e6) return fmt::format("{:.{}f} us", value / 1e3, magnitude < 1e4 ? 2 : magnitude < 1e5 ? 1 : 0);
  if (magnitude < 1e9) return fmt::format("{:.{}f} ms", value / 1e6, magnitude < 1e7 ? 2 : magnitude < 1e8 ? 1 : 0);
  return fmt::format("{:.3f} s", value / 1e9);
}

std::string format_bytes(std::int64_t bytes) {
  static constexpr std::array<const char*, 5> kUnits = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (std::fabs(value) >= 1024.0 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  if (unit == 0) return fmt::format("{} B", bytes);
  return fmt::format("{:.{}f} {}", value, std::fabs(value) < 100 ? 2 : 1, kUnits[unit]);
}

double gigabytes_per_second(std::int64_t bytes, std::int64_t nanoseconds) {
  if (nanoseconds <= 0) return 0.0;
  return static_cast<double>(bytes) / static_cast<double>(nanoseconds);
}

}  // namespace gpuprof::units
