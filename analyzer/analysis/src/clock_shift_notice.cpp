#include "gpuprof/analysis/clock_shift_notice.hpp"

#include <charconv>
#include <cstdint>
#include <cstdlib>

#include "gpuprof/units/units.hpp"

namespace gpuprof::analysis {

std::optional<std::string> clock_shift_notice(const std::map<std::string, std::string>& meta) {
  const auto shift = meta.find("gpu_clock_shift_ns");
  if (shift == meta.end()) return std::nullopt;
  std::int64_t value = 0;
  const auto& text = shift->second;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    return "the trace says its GPU clock was shifted, by an unreadable amount ('" + text + "')";
  }
  // format_duration takes magnitudes; the sign says the direction.
  const std::string amount = units::format_duration(value < 0 ? -value : value);
  std::string notice = "GPU timestamps were moved " + std::string(value < 0 ? "back" : "forward") + " by " + amount +
                       " (" + text + " ns) at import, onto the host clock";
  if (const auto reason = meta.find("gpu_clock_shift_reason"); reason != meta.end() && !reason->second.empty()) {
    notice += ": " + reason->second;
  }
  return notice;
}

}  // namespace gpuprof::analysis
