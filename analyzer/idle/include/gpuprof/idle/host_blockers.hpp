#pragma once

// The single host activities that left a device idle longest: one
// synchronize, blocking copy, collective call or data-loading range whose time
// the device spent mostly idle. Sums by cause say how much; these say which call,
// so a report can name "the host blocked 139 ms in one DtoH copy to pageable memory".

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/device_activity.hpp"
#include "gpuprof/idle/host_causes.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::idle {

// One kind of host call (the same call, cause and copy detail on one device), summed over its instances.
struct HostBlocker {
  std::int32_t device = 0;
  IdleCause cause = IdleCause::sync_wait;
  std::string call;    // the API call or range name
  std::string detail;  // for a copy: "DtoH to pageable memory, 704 B"; else empty
  std::int64_t count = 0;                   // instances with device idle time under them
  std::int64_t shortest_ns = 0, longest_ns = 0;  // of those instances
  std::int64_t start_ns = 0, end_ns = 0;    // the longest instance
  std::int64_t idle_ns = 0;  // the device's idle time while they ran, summed
};

inline constexpr std::size_t kHostBlockers = 3;

// The kHostBlockers kinds of host activity with the most device idle time under them, most first, over the
// devices of `activity`; only activities on the threads that issue a device's work (data loading: any thread).
std::vector<HostBlocker> find_host_blockers(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations,
                                            const HostCauses& host, const std::vector<analysis::DeviceActivity>& activity);

}  // namespace gpuprof::idle
