#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpuprof/trace/records.hpp"

namespace gpuprof::collector {

// What the CUDA driver already loaded in this process says about the machine.
struct DriverFacts {
  std::optional<int> driver_version;   // e.g. 13000
  std::optional<int> runtime_version;  // only when the runtime is a shared library
  std::vector<trace::DeviceRow> devices;
  std::vector<trace::DeviceLinkRow> links;
  std::string problem;  // why nothing could be learned, if so
};

// Looks the driver's functions up with dlsym (no link dependency on libcuda)
// and asks it, best effort. Call only after cuInit has completed.
DriverFacts probe_driver();

}  // namespace gpuprof::collector
