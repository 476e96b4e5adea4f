#pragma once

// GPU memory in use over time, per device, from the trace's allocation and
// free events (memory_events, schema 1.3): the timeline, its peak and when,
// and the allocations behind it (analyzer/memory/README.md).

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::memory {

// Where the in-use figure comes from.
enum class InUseSource {
  running_sum,     // baseline + allocations − frees up to each event
  recorded_total,  // the source's own figure after each event (Kineto "Total Allocated")
};
std::string_view to_string(InUseSource source);

// In use from `time_ns` until the next point (bytes after the event at that time).
struct MemoryPoint {
  std::int64_t time_ns = 0;
  std::int64_t bytes = 0;
};

struct DeviceMemory {
  std::int32_t device = 0;
  InUseSource source = InUseSource::running_sum;
  std::int64_t allocations = 0, frees = 0;
  std::int64_t allocated_bytes = 0, freed_bytes = 0;
  // In use before the first event: 0, unless frees of memory allocated before
  // the trace began would take the running sum below zero (a trace started
  // mid-run); then the smallest baseline that keeps it at or above zero.
  std::int64_t baseline_bytes = 0;
  std::int64_t final_bytes = 0;  // after the last event
  std::int64_t peak_bytes = 0;   // the timeline's maximum
  std::int64_t peak_time_ns = 0;  // when it was first reached
  double mean_bytes = 0;          // time-weighted from the first event to the last
  std::int64_t first_ns = 0, last_ns = 0;
  // Recorded totals that differ from the previous total plus this event's change
  // (events the source did not record, or another allocator): 0 for a running sum.
  std::int64_t recorded_mismatches = 0;
  // Global memory of the device where the trace says (devices.memory_bytes), else kUnknown.
  std::int64_t capacity_bytes = trace::kUnknown;
  // Allocations of host memory (pinned, pageable) made through this device:
  // counted here, not part of the device's timeline.
  std::int64_t host_allocations = 0, host_allocated_bytes = 0;
  std::vector<MemoryPoint> timeline;  // one point per device-memory event, in time order
};

struct MemoryUse {
  // Whether the trace file can hold memory events at all (schema 1.3 on).
  bool table_present = false;
  std::int64_t events = 0;  // every memory event of the trace
  std::vector<DeviceMemory> devices;  // ascending device; devices with memory events only
  // Counted problems: devices left out, baselines assumed.
  std::vector<std::string> notices;

  bool recorded() const { return events > 0; }
};

// `max_points`: the longest timeline kept per device (0: every point); a longer
// one is thinned keeping each slice's largest value (thinned_series.hpp).
MemoryUse analyze_memory(const trace::TraceModel& model, std::size_t max_points = 0);

}  // namespace gpuprof::memory
