#pragma once

// Kernels launched but never recorded. CUPTI's forced flush at exit does not
// wait for the GPU, so a kernel still queued or running when the program exits
// never gets a kernel record, while its launch API record (written when the call
// returned) says it was launched. Matching the two by correlation id counts the
// loss instead of leaving it silent.

#include <cstdint>
#include <span>
#include <optional>
#include <string>
#include <unordered_set>

#include "gpuprof/trace/records.hpp"

namespace gpuprof::collector {

class LaunchAccounting {
 public:
  // True for the runtime and driver calls that launch exactly one kernel (graph
  // launches, which launch many under one correlation id, are not among them).
  static bool is_kernel_launch(trace::ApiKind kind, std::uint32_t callback_id);
  // The driver calls is_kernel_launch knows.
  static std::span<const std::uint32_t> driver_kernel_launches();
  // True for the calls that start capturing a stream into a graph.
  static bool is_capture_begin(trace::ApiKind kind, std::uint32_t callback_id);

  // Every runtime or driver API record, whatever the call.
  void api_returned(trace::ApiKind kind, std::uint32_t callback_id, std::uint32_t correlation_id, bool succeeded);
  // A kernel record, with or without times, launched outside a graph.
  void kernel_arrived(std::uint32_t correlation_id);
  // CUPTI dropped records: a missing kernel record may be one of those, and
  // counting it again here would count one loss twice.
  void records_were_dropped() { records_dropped_ = true; }

  // Launches whose kernel record never arrived; nullopt when that cannot be
  // known, with the reason in why_unchecked().
  std::optional<std::int64_t> kernels_missing() const;
  std::string why_unchecked() const;

 private:
  // Kernel records may come before their launch records (they travel in other
  // buffers); beyond this many such early kernels the launches are not being
  // recorded (e.g. a launch API outside the list) and the check is given up.
  static constexpr std::size_t kMaxEarlyKernels = 1 << 20;

  // The nested launch record of a pair comes next to the first: the last this
  // many matches (at least) are remembered, older ones forgotten.
  static constexpr std::size_t kRecentlyMatchedGeneration = 1 << 16;

  void launched(std::uint32_t correlation_id);
  void matched(std::uint32_t correlation_id);
  bool recently_matched(std::uint32_t correlation_id) const;
  void give_up();

  std::unordered_set<std::uint32_t> waiting_launches_, early_kernels_;
  std::unordered_set<std::uint32_t> matched_now_, matched_before_;
  bool any_launch_ = false;
  bool too_many_early_kernels_ = false;
  bool stream_captured_ = false;
  bool records_dropped_ = false;
};

}  // namespace gpuprof::collector
