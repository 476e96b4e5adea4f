#include "gpuprof/collector/driver_probe.hpp"

#include <cuda.h>
#include <dlfcn.h>

#include <array>

namespace gpuprof::collector {
namespace {

using DeviceGetCount = CUresult (*)(int*);
using DeviceGet = CUresult (*)(CUdevice*, int);
using CanAccessPeer = CUresult (*)(int*, CUdevice, CUdevice);
using GetP2PAttribute = CUresult (*)(int*, CUdevice_P2PAttribute, CUdevice, CUdevice);
using GetPciBusId = CUresult (*)(char*, int, CUdevice);
using GetName = CUresult (*)(char*, int, CUdevice);
using TotalMemory = CUresult (*)(size_t*, CUdevice);
using GetAttribute = CUresult (*)(int*, CUdevice_attribute, CUdevice);
using GetVersion = CUresult (*)(int*);
using RuntimeGetVersion = int (*)(int*);

struct DriverFunctions {
  DeviceGetCount device_count = nullptr;
  DeviceGet device = nullptr;
  CanAccessPeer can_access_peer = nullptr;
  GetP2PAttribute peer_attribute = nullptr;
  GetPciBusId pci_bus_id = nullptr;
  GetName name = nullptr;
  TotalMemory total_memory = nullptr;
  GetAttribute attribute = nullptr;
  GetVersion driver_version = nullptr;
};

template <typename Function>
Function find(void* library, const char* name) {
  return reinterpret_cast<Function>(::dlsym(library, name));
}

DriverFunctions load_functions(void* library) {
  DriverFunctions functions;
  functions.device_count = find<DeviceGetCount>(library, "cuDeviceGetCount");
  functions.device = find<DeviceGet>(library, "cuDeviceGet");
  functions.can_access_peer = find<CanAccessPeer>(library, "cuDeviceCanAccessPeer");
  functions.peer_attribute = find<GetP2PAttribute>(library, "cuDeviceGetP2PAttribute");
  functions.pci_bus_id = find<GetPciBusId>(library, "cuDeviceGetPCIBusId");
  functions.name = find<GetName>(library, "cuDeviceGetName");
  functions.total_memory = find<TotalMemory>(library, "cuDeviceTotalMem_v2");
  functions.attribute = find<GetAttribute>(library, "cuDeviceGetAttribute");
  functions.driver_version = find<GetVersion>(library, "cuDriverGetVersion");
  return functions;
}

std::optional<int> attribute(const DriverFunctions& driver, CUdevice_attribute which, CUdevice device) {
  int value = 0;
  if (driver.attribute == nullptr || driver.attribute(&value, which, device) != CUDA_SUCCESS) return std::nullopt;
  return value;
}

trace::DeviceRow describe_device(const DriverFunctions& driver, int ordinal, CUdevice device) {
  trace::DeviceRow row;
  row.id = ordinal;
  std::array<char, 256> text{};
  if (driver.name && driver.name(text.data(), static_cast<int>(text.size() - 1), device) == CUDA_SUCCESS) {
    row.name = std::string(text.data());
  }
  text.fill(0);
  if (driver.pci_bus_id && driver.pci_bus_id(text.data(), static_cast<int>(text.size() - 1), device) == CUDA_SUCCESS) {
    row.pci_bus_id = std::string(text.data());
  }
  size_t memory = 0;
  if (driver.total_memory && driver.total_memory(&memory, device) == CUDA_SUCCESS) {
    row.memory_bytes = static_cast<std::int64_t>(memory);
  }
  row.compute_major = attribute(driver, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  row.compute_minor = attribute(driver, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  row.sm_count = attribute(driver, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
  return row;
}

trace::DeviceLinkRow describe_link(const DriverFunctions& driver, int source, int destination,
                                   CUdevice source_device, CUdevice destination_device) {
  trace::DeviceLinkRow link;
  link.src_device = source;
  link.dst_device = destination;
  int value = 0;
  if (driver.can_access_peer &&
      driver.can_access_peer(&value, source_device, destination_device) == CUDA_SUCCESS) {
    link.peer_access = value != 0;
    // Without peer access, copies between the two GPUs are staged through host memory.
    if (value == 0) link.link_kind = "via_host";
  }
  if (driver.peer_attribute && link.peer_access.value_or(false) &&
      driver.peer_attribute(&value, CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, source_device, destination_device) ==
          CUDA_SUCCESS) {
    link.performance_rank = value;
  }
  return link;
}

std::optional<int> runtime_version() {
  // Only a shared libcudart exports this; a statically linked runtime stays unknown.
  const auto get = find<RuntimeGetVersion>(RTLD_DEFAULT, "cudaRuntimeGetVersion");
  int version = 0;
  if (get == nullptr || get(&version) != 0) return std::nullopt;
  return version;
}

}  // namespace

DriverFacts probe_driver() {
  DriverFacts facts;
  void* library = ::dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (library == nullptr) {
    facts.problem = "the CUDA driver is not loaded in this process";
    return facts;
  }
  const auto driver = load_functions(library);
  int version = 0;
  if (driver.driver_version && driver.driver_version(&version) == CUDA_SUCCESS) facts.driver_version = version;
  facts.runtime_version = runtime_version();
  int count = 0;
  if (!driver.device_count || !driver.device || driver.device_count(&count) != CUDA_SUCCESS) {
    facts.problem = "cuDeviceGetCount failed";
    ::dlclose(library);
    return facts;
  }
  std::vector<CUdevice> handles(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    driver.device(&handles[static_cast<std::size_t>(i)], i);
    facts.devices.push_back(describe_device(driver, i, handles[static_cast<std::size_t>(i)]));
  }
  for (int source = 0; source < count; ++source) {
    for (int destination = 0; destination < count; ++destination) {
      if (source == destination) continue;
      facts.links.push_back(describe_link(driver, source, destination, handles[static_cast<std::size_t>(source)],
                                          handles[static_cast<std::size_t>(destination)]));
    }
  }
  ::dlclose(library);  // drops only the reference taken by RTLD_NOLOAD
  return facts;
}

}  // namespace gpuprof::collector
