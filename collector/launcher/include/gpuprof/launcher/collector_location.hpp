#pragma once

#include <string>

namespace gpuprof::launcher {

// Where libgpuprof_collector.so is: $GPUPROF_COLLECTOR, else beside the running
// executable (or in ../lib), else where the build put it. Empty when none exists.
std::string find_collector_library();

// libcupti.so, which NVTX_INJECTION64_PATH must name so that NVTX ranges reach
// CUPTI: $GPUPROF_CUPTI, else the library the collector was built against.
// Empty when unknown.
std::string find_cupti_library();

}  // namespace gpuprof::launcher
