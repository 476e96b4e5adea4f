#pragma once

#include <string>

namespace gpuprof::launcher {

// Where libgpuprof_collector.so is: $GPUPROF_COLLECTOR, else beside the running
// executable (or in ../lib), else where the build put it. Empty when none exists.
std::string find_collector_library();

}  // namespace gpuprof::launcher
