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

struct HostBlocker {
  std::int32_t device = 0;
  IdleCause cause = IdleCause::sync_wait;
  std::string call;    // the API call or range name
  std::string detail;  // for a copy: "DtoH to pageable memory, 704 B"; else empty
  std::int64_t start_ns = 0, end_ns = 0;
  std::int64_t idle_ns = 0;  // the device's idle time while it ran
};

inline constexpr std::size_t kHostBlockers = 3;

// The kHostBlockers activities with the most device idle time under them, most first, over the devices of
// `activity`; only activities on the threads that issue a device's work (data loading: any thread).
std::vector<HostBlocker> find_host_blockers(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations,
                                            const HostCauses& host, const std::vector<analysis::DeviceActivity>& activity);

}  // namespace gpuprof::idle
