#include "gpuprof/idle/idle_description.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "gpuprof/units/units.hpp"

namespace gpuprof::idle {

std::string describe_idle(const IdleInterval& interval) {
  const auto length = interval.end_ns - interval.start_ns;
  const auto verdict = judge(interval.causes);
  const auto share = [length](std::int64_t ns) { return length > 0 ? 100.0 * static_cast<double>(ns) / static_cast<double>(length) : 0.0; };
  auto text = fmt::format("idle {} {} step {}: {} (coverage {:.1f}%)", units::format_duration(length),
                          interval.in_gap ? "in the batch gap after" : "inside", interval.step, to_string(verdict.label),
                          share(verdict.covered_ns));
  std::vector<std::pair<std::int64_t, IdleCause>> causes;
  for (std::size_t i = 0; i < interval.causes.size(); ++i) {
    if (interval.causes[i] > 0) causes.emplace_back(interval.causes[i], static_cast<IdleCause>(i));
  }
  std::stable_sort(causes.begin(), causes.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [ns, cause] : causes) text += fmt::format("; {} {:.1f}%", to_string(cause), share(ns));
  return text;
}

const IdleInterval* idle_interval_at(const std::vector<IdleInterval>& intervals, std::int32_t device,
                                     std::int64_t time_ns) {
  const auto it = std::upper_bound(intervals.begin(), intervals.end(), std::pair{device, time_ns},
                                   [](const std::pair<std::int32_t, std::int64_t>& key, const IdleInterval& interval) {
                                     return key < std::pair{interval.device, interval.start_ns};
                                   });
  if (it == intervals.begin()) return nullptr;
  const auto& found = *std::prev(it);
  return found.device == device && time_ns < found.end_ns ? &found : nullptr;
}

}  // namespace gpuprof::idle
