#pragma once

// The vocabulary of idle causes (DESIGN.md, "Idle causes") and how one idle
// interval, or a sum of them, is judged from the time each cause covers.

#include <array>
#include <cstdint>
#include <string_view>

namespace gpuprof::idle {

// In the order ties are broken. Every cause but `mixed` covers part of an interval; `mixed` is the label
// of an interval whose largest cause covers under half of it.
enum class IdleCause : std::uint8_t {
  sync_wait,
  blocking_copy,
  peer_wait,
  data_loading,
  host_bound,
  launch_latency,
  unrecorded,
  mixed
};
inline constexpr std::size_t kCoveringCauses = 7;  // every cause but mixed
inline constexpr std::size_t kIdleLabels = 8;      // every cause, mixed included

std::string_view to_string(IdleCause cause);

// Time per covering cause (indexed by IdleCause); a partition of the idle time it was measured over.
using CauseTimes = std::array<std::int64_t, kCoveringCauses>;

std::int64_t total_of(const CauseTimes& times);
// Adds `more` into `sum`, cause by cause (a function, not +=, so that callers in any namespace find it).
void add_times(CauseTimes& sum, const CauseTimes& more);

struct IdleVerdict {
  IdleCause label = IdleCause::unrecorded;
  std::int64_t covered_ns = 0;  // time of the largest cause (the label's own, or the largest of a mixed one)
};

// The largest cause (ties in IdleCause order) when it covers at least half of the time, else mixed.
IdleVerdict judge(const CauseTimes& times);

// Idle time summed by label: each interval adds its whole length to its label, and its largest cause's
// time to that label's covered time. The causes' own times add up to the same total.
struct IdleTally {
  std::array<std::int64_t, kIdleLabels> label_ns{};
  std::array<std::int64_t, kIdleLabels> covered_ns{};
  CauseTimes cause_ns{};
  std::int64_t intervals = 0;

  void add(const CauseTimes& times);
  // Takes back what add(times) added: an interval given new causes is removed and added again.
  void remove(const CauseTimes& times);
  std::int64_t total_ns() const;
  // Share of the label's time that its cause covers (0 without time); for mixed, of the largest cause.
  double coverage(IdleCause label) const;
  // Idle time with a cause other than mixed and unrecorded.
  std::int64_t explained_ns() const;
  IdleTally& operator+=(const IdleTally& other);
  friend bool operator==(const IdleTally&, const IdleTally&) = default;
};

}  // namespace gpuprof::idle
