#include "gpuprof/rank/idle_description.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "gpuprof/units/units.hpp"

namespace gpuprof::idle {

namespace {

double share(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

// "; data_loading 98.3%; unrecorded 1.7%": every cause with time, largest first, as shares of `whole`.
std::string cause_shares(const CauseTimes& times, std::int64_t whole) {
  std::vector<std::pair<std::int64_t, IdleCause>> causes;
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (times[i] > 0) causes.emplace_back(times[i], static_cast<IdleCause>(i));
  }
  std::stable_sort(causes.begin(), causes.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string text;
  for (const auto& [ns, cause] : causes) text += fmt::format("; {} {:.1f}%", to_string(cause), share(ns, whole));
  return text;
}

}  // namespace

std::string describe_idle(const IdleInterval& interval) {
  const auto length = interval.end_ns - interval.start_ns;
  const auto verdict = judge(interval.causes);
  return fmt::format("idle {} {} step {}: {} (coverage {:.1f}%)", units::format_duration(length),
                     interval.in_gap ? "in the batch gap after" : "inside", interval.step, to_string(verdict.label),
                     share(verdict.covered_ns, length)) +
         cause_shares(interval.causes, length);
}

std::string describe_gap(const analysis::BatchGap& gap) {
  return fmt::format("batch gap {} after step {}{} (idle {}): {} (coverage {:.1f}%)",
                     units::format_duration(gap.end_ns - gap.start_ns), gap.after_step,
                     gap.after_warmup ? " (warm-up)" : "", units::format_duration(gap.idle_ns), to_string(gap.cause),
                     100.0 * gap.coverage()) +
         cause_shares(gap.causes, gap.idle_ns);
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
