#include "gpuprof/memory/memory_use.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "gpuprof/analysis/thinned_series.hpp"

namespace gpuprof::memory {
namespace {

using trace::MemoryKind;
using trace::MemoryOperation;

// Pinned and pageable memory is host memory, even when allocated through a
// device's context: it does not fill the device.
bool is_host_memory(MemoryKind kind) { return kind == MemoryKind::pinned || kind == MemoryKind::pageable; }

// Rows [begin, end) of the sorted table that belong to one device.
struct DeviceRows {
  std::int32_t device = 0;
  std::size_t begin = 0, end = 0;
};

std::vector<DeviceRows> device_rows(const trace::MemoryEventTable& events) {
  std::vector<DeviceRows> rows;
  for (std::size_t row = 0; row < events.size(); ++row) {
    if (rows.empty() || rows.back().device != events.device[row]) rows.push_back({events.device[row], row, row});
    rows.back().end = row + 1;
  }
  return rows;
}

std::int64_t capacity_of(const trace::TraceModel& model, std::int32_t device) {
  for (const auto& row : model.devices) {
    if (row.id == device && row.memory_bytes && *row.memory_bytes > 0) return *row.memory_bytes;
  }
  return trace::kUnknown;
}

// The device-memory rows' in-use figures; nullopt when a sum leaves int64 (a hostile file).
struct Sums {
  std::vector<std::int64_t> rows;     // table rows counted, in time order
  std::vector<std::int64_t> running;  // allocations − frees up to and including each row
  std::int64_t lowest = 0;            // the running sum's minimum, 0 if it never goes below
};

std::optional<Sums> running_sums(const trace::MemoryEventTable& events, const DeviceRows& rows, DeviceMemory& out) {
  Sums sums;
  std::int64_t in_use = 0;
  for (std::size_t row = rows.begin; row < rows.end; ++row) {
    const std::int64_t bytes = events.bytes[row];
    const bool alloc = events.operation[row] == MemoryOperation::alloc;
    if (is_host_memory(events.memory_kind[row])) {
      if (alloc) ++out.host_allocations, out.host_allocated_bytes += bytes;
      continue;
    }
    std::int64_t* total = alloc ? &out.allocated_bytes : &out.freed_bytes;
    if (__builtin_add_overflow(*total, bytes, total) ||
        __builtin_add_overflow(in_use, alloc ? bytes : -bytes, &in_use)) {
      return std::nullopt;
    }
    ++(alloc ? out.allocations : out.frees);
    sums.rows.push_back(static_cast<std::int64_t>(row));
    sums.running.push_back(in_use);
    sums.lowest = std::min(sums.lowest, in_use);
  }
  return sums;
}

bool every_total_recorded(const trace::MemoryEventTable& events, const Sums& sums) {
  return !sums.rows.empty() && std::all_of(sums.rows.begin(), sums.rows.end(), [&events](std::int64_t row) {
    return events.allocated_after[static_cast<std::size_t>(row)] != trace::kUnknown;
  });
}

// In use after each event as the source recorded it; mismatches count the
// events whose recorded change differs from their own size.
void use_recorded_totals(const trace::MemoryEventTable& events, const Sums& sums, DeviceMemory& out) {
  out.source = InUseSource::recorded_total;
  std::int64_t previous_change = 0;
  for (std::size_t i = 0; i < sums.rows.size(); ++i) {
    const auto row = static_cast<std::size_t>(sums.rows[i]);
    const std::int64_t change = sums.running[i] - previous_change;
    previous_change = sums.running[i];
    const std::int64_t recorded = events.allocated_after[row];
    if (i == 0) {
      out.baseline_bytes = std::max<std::int64_t>(0, recorded - change);
      if (recorded < change) ++out.recorded_mismatches;
    } else if (recorded - out.timeline.back().bytes != change) {
      ++out.recorded_mismatches;
    }
    out.timeline.push_back({events.time_ns[row], recorded});
  }
}

void use_running_sums(const trace::MemoryEventTable& events, const Sums& sums, DeviceMemory& out) {
  out.source = InUseSource::running_sum;
  out.baseline_bytes = -sums.lowest;
  for (std::size_t i = 0; i < sums.rows.size(); ++i) {
    const auto row = static_cast<std::size_t>(sums.rows[i]);
    out.timeline.push_back({events.time_ns[row], out.baseline_bytes + sums.running[i]});
  }
}

void summarize_timeline(DeviceMemory& out) {
  const auto& points = out.timeline;
  if (points.empty()) return;
  const auto peak = std::max_element(points.begin(), points.end(),
                                     [](const MemoryPoint& a, const MemoryPoint& b) { return a.bytes < b.bytes; });
  out.peak_bytes = peak->bytes, out.peak_time_ns = peak->time_ns;
  out.final_bytes = points.back().bytes;
  out.first_ns = points.front().time_ns, out.last_ns = points.back().time_ns;
  const long double span = static_cast<long double>(out.last_ns) - static_cast<long double>(out.first_ns);
  if (span <= 0) {
    out.mean_bytes = static_cast<double>(out.final_bytes);
    return;
  }
  long double area = 0;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    area += static_cast<long double>(points[i].bytes) *
            (static_cast<long double>(points[i + 1].time_ns) - static_cast<long double>(points[i].time_ns));
  }
  out.mean_bytes = static_cast<double>(area / span);
}

void add_notices(const DeviceMemory& device, std::vector<std::string>& notices) {
  if (device.source == InUseSource::running_sum && device.baseline_bytes > 0) {
    notices.push_back(fmt::format(
        "GPU {}: the trace frees memory allocated before it began (the running sum of its events goes down to "
        "-{} bytes); memory in use is counted from a baseline of {} bytes, the smallest that keeps it at zero or "
        "above",
        device.device, device.baseline_bytes, device.baseline_bytes));
  }
  if (device.recorded_mismatches > 0) {
    notices.push_back(fmt::format(
        "GPU {}: {} of {} memory events change the recorded total allocated by another amount than their own size "
        "(events the source did not record); the timeline follows the recorded totals",
        device.device, device.recorded_mismatches, device.allocations + device.frees));
  }
}

}  // namespace

std::string_view to_string(InUseSource source) {
  return source == InUseSource::recorded_total ? "recorded total" : "running sum";
}

MemoryUse analyze_memory(const trace::TraceModel& model, std::size_t max_points) {
  MemoryUse use;
  use.table_present = model.memory_events_table;
  const auto& events = model.memory_events;
  use.events = static_cast<std::int64_t>(events.size());
  for (const auto& rows : device_rows(events)) {
    DeviceMemory device{.device = rows.device};
    const auto sums = running_sums(events, rows, device);
    if (!sums) {
      use.notices.push_back(fmt::format("GPU {}: memory events left out: their sizes add up past 2^63 bytes",
                                        rows.device));
      continue;
    }
    if (every_total_recorded(events, *sums)) {
      use_recorded_totals(events, *sums, device);
    } else {
      use_running_sums(events, *sums, device);
    }
    summarize_timeline(device);
    device.capacity_bytes = capacity_of(model, rows.device);
    add_notices(device, use.notices);
    if (max_points > 0) {
      device.timeline = analysis::thinned_keeping_max(device.timeline, max_points, &MemoryPoint::bytes);
    }
    use.devices.push_back(std::move(device));
  }
  return use;
}

}  // namespace gpuprof::memory
