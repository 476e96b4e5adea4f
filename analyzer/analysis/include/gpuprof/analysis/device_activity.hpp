#pragma once

// Per device: the time covered by computation, communication and copies, as
// interval sets, plus the set differences every breakdown needs.

#include <cstdint>
#include <vector>

#include "gpuprof/analysis/classification.hpp"
#include "gpuprof/analysis/interval_set.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

struct DeviceActivity {
  std::int32_t device = 0;
  IntervalSet compute;         // computation kernels and memsets
  IntervalSet comm;            // communication kernels
  IntervalSet memcpy;          // every copy
  IntervalSet peer_copy;       // peer-to-peer (PtoP) copies: work that may wait for another device
  IntervalSet exposed_comm;    // comm − compute
  IntervalSet compute_or_comm; // compute ∪ comm
  IntervalSet exposed_memcpy;  // memcpy − (compute ∪ comm)
  IntervalSet busy;            // compute ∪ comm ∪ memcpy

  bool empty() const { return busy.empty(); }
  std::int64_t first_start() const { return busy.empty() ? 0 : busy.front().start; }
  std::int64_t last_end() const { return busy.empty() ? 0 : busy.back().end; }
};

// One entry per device of model.device_ids(), ascending; devices without GPU work have empty sets.
std::vector<DeviceActivity> build_device_activity(const trace::TraceModel& model,
                                                  const std::vector<KernelCategory>& name_categories);

const DeviceActivity* find_device(const std::vector<DeviceActivity>& activity, std::int32_t device);

}  // namespace gpuprof::analysis
