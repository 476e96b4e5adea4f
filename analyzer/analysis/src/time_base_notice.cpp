#include "gpuprof/analysis/time_base_notice.hpp"

#include <charconv>
#include <cstdint>
#include <vector>

#include "gpuprof/importers/gpu_clock_check.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::analysis {

std::optional<std::string> clock_shift_notice(const std::map<std::string, std::string>& meta) {
  const auto shift = meta.find("gpu_clock_shift_ns");
  if (const auto segments = meta.find("gpu_clock_segments"); shift == meta.end() && segments != meta.end() &&
                                                             segments->second != "1") {
    return "GPU timestamps were moved onto the host clock piecewise at import (its host clock steps): " +
           *clock_fit_notice(meta);
  }
  if (shift == meta.end()) return std::nullopt;
  std::int64_t value = 0;
  const auto& text = shift->second;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value == INT64_MIN) {
    return "the trace says its GPU clock was shifted, by an unreadable amount ('" + text + "')";
  }
  // The words say the direction, so the amount is a magnitude.
  const std::string amount = units::format_duration(value < 0 ? -value : value);
  std::string notice = "GPU timestamps were moved " + std::string(value < 0 ? "back" : "forward") + " by " + amount +
                       " (" + text + " ns) at import, onto the host clock";
  if (const auto reason = meta.find("gpu_clock_shift_reason"); reason != meta.end() && !reason->second.empty()) {
    notice += ": " + reason->second;
  }
  return notice;
}

std::optional<std::string> clock_fit_notice(const std::map<std::string, std::string>& meta) {
  const auto segments = meta.find("gpu_clock_segments");
  if (segments == meta.end()) return std::nullopt;
  std::string notice = segments->second + (segments->second == "1" ? " segment" : " segments") +
                       " (host-to-GPU offset fitted piecewise to launches, synchronous copies and synchronizes)";
  if (const auto violations = meta.find("gpu_clock_violations"); violations != meta.end()) {
    notice += "; bounds broken: " + violations->second;
  }
  return notice;
}

namespace {

template <typename Table>
void add_delays(const Table& table, const trace::ApiCallTable& api_calls, const CorrelationIndex& correlations,
                std::vector<std::int64_t>& delays) {
  for (std::size_t row = 0; row < table.size(); ++row) {
    if (static_cast<std::int64_t>(delays.size()) >= importers::kClockCheckSample) return;
    if (table.correlation_id[row] == trace::kUnknown) continue;
    const auto call = correlations.api_row(table.correlation_id[row]);
    if (call != CorrelationIndex::kNone) delays.push_back(table.start_ns[row] - api_calls.start_ns[call]);
  }
}

}  // namespace

std::optional<std::string> time_base_notice(const trace::TraceModel& model, const CorrelationIndex& correlations) {
  if (auto shifted = clock_shift_notice(model.meta)) return shifted;
  std::vector<std::int64_t> delays;
  add_delays(model.kernels, model.api_calls, correlations, delays);
  add_delays(model.memcpys, model.api_calls, correlations, delays);
  add_delays(model.memsets, model.api_calls, correlations, delays);
  const auto check = importers::judge_launch_delays(std::move(delays));
  if (check.shift_ns == 0) return std::nullopt;
  return "host and GPU timestamps of this trace are on different clocks: " + check.reason +
         "; launch delays and the host/GPU timeline are unreliable (the GPU side is " +
         units::format_duration(check.shift_ns < 0 ? -check.shift_ns : check.shift_ns) +
         (check.shift_ns < 0 ? " ahead" : " behind") + ")";
}

}  // namespace gpuprof::analysis
