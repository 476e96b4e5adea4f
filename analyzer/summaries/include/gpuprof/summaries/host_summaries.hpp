#pragma once

// What Nsight Systems users read first, from any trace gpuprof reads: the NVTX
// (or framework annotation) range summary, as `nsys stats --report nvtx_sum`,
// and the CUDA API summary, as `cuda_api_sum`.

#include <vector>

#include "gpuprof/summaries/named_durations.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::summaries {

// Host ranges (GPU-side annotations left out) per domain and name: "name" in the
// default domain, "domain:name" in another, as nsys writes them.
std::vector<NamedDurations> range_summary(const trace::TraceModel& model);

// Runtime and driver API calls per name.
std::vector<NamedDurations> api_summary(const trace::TraceModel& model);

}  // namespace gpuprof::summaries
