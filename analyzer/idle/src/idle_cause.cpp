#include "gpuprof/idle/idle_cause.hpp"

#include <numeric>

namespace gpuprof::idle {

std::string_view to_string(IdleCause cause) {
  switch (cause) {
    case IdleCause::sync_wait: return "sync_wait";
    case IdleCause::blocking_copy: return "blocking_copy";
    case IdleCause::peer_wait: return "peer_wait";
    case IdleCause::data_loading: return "data_loading";
    case IdleCause::host_bound: return "host_bound";
    case IdleCause::launch_latency: return "launch_latency";
    case IdleCause::unrecorded: return "unrecorded";
    case IdleCause::mixed: return "mixed";
  }
  return "unrecorded";
}

std::int64_t total_of(const CauseTimes& times) { return std::accumulate(times.begin(), times.end(), std::int64_t{0}); }

void add_times(CauseTimes& sum, const CauseTimes& more) {
  for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += more[i];
}

IdleVerdict judge(const CauseTimes& times) {
  std::size_t largest = static_cast<std::size_t>(IdleCause::unrecorded);
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (times[i] > times[largest] || (times[i] == times[largest] && i < largest)) largest = i;
  }
  const auto total = total_of(times);
  // "At least half": an interval split evenly between two causes still names the first.
  const bool clear = 2 * times[largest] >= total;
  return {clear ? static_cast<IdleCause>(largest) : IdleCause::mixed, times[largest]};
}

void IdleTally::add(const CauseTimes& times) {
  const auto total = total_of(times);
  if (total <= 0) return;
  const auto verdict = judge(times);
  const auto label = static_cast<std::size_t>(verdict.label);
  label_ns[label] += total;
  covered_ns[label] += verdict.covered_ns;
  add_times(cause_ns, times);
  ++intervals;
}

void IdleTally::remove(const CauseTimes& times) {
  const auto total = total_of(times);
  if (total <= 0) return;
  const auto verdict = judge(times);
  const auto label = static_cast<std::size_t>(verdict.label);
  label_ns[label] -= total;
  covered_ns[label] -= verdict.covered_ns;
  for (std::size_t i = 0; i < cause_ns.size(); ++i) cause_ns[i] -= times[i];
  --intervals;
}

std::int64_t IdleTally::total_ns() const { return total_of(cause_ns); }

double IdleTally::coverage(IdleCause label) const {
  const auto index = static_cast<std::size_t>(label);
  return label_ns[index] > 0 ? static_cast<double>(covered_ns[index]) / static_cast<double>(label_ns[index]) : 0.0;
}

std::int64_t IdleTally::explained_ns() const {
  return total_ns() - label_ns[static_cast<std::size_t>(IdleCause::mixed)] -
         label_ns[static_cast<std::size_t>(IdleCause::unrecorded)];
}

IdleTally& IdleTally::operator+=(const IdleTally& other) {
  for (std::size_t i = 0; i < kIdleLabels; ++i) label_ns[i] += other.label_ns[i], covered_ns[i] += other.covered_ns[i];
  add_times(cause_ns, other.cause_ns);
  intervals += other.intervals;
  return *this;
}

}  // namespace gpuprof::idle
