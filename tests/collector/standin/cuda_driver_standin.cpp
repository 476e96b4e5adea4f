// A stand-in for libcuda.so.1 (a test double, never installed): the few driver
// calls that `gpuprof record`, `gpuprof sweep` and the collector's device probe
// make. GPUPROF_STANDIN_DEVICES sets how many GPUs there are (default 2; 0 makes
// cuInit fail as on a machine without one) and GPUPROF_STANDIN_NO_PEER lists the
// pairs without peer access ("0-1,1-0").

#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

int device_count() {
  const char* text = std::getenv("GPUPROF_STANDIN_DEVICES");
  return text != nullptr ? std::atoi(text) : 2;
}

bool valid(CUdevice device) { return device >= 0 && device < device_count(); }

bool peer_access(CUdevice source, CUdevice destination) {
  const char* list = std::getenv("GPUPROF_STANDIN_NO_PEER");
  if (list == nullptr) return true;
  const std::string pair = std::to_string(source) + "-" + std::to_string(destination);
  return (std::string(",") + list + ",").find("," + pair + ",") == std::string::npos;
}

}  // namespace

extern "C" {

CUresult cuInit(unsigned int) { return device_count() > 0 ? CUDA_SUCCESS : CUDA_ERROR_NO_DEVICE; }

CUresult cuDriverGetVersion(int* version) {
  if (version == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *version = 13000;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
  if (count == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *count = device_count();
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (device == nullptr || !valid(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char* name, int length, CUdevice device) {
  if (name == nullptr || length <= 0 || !valid(device)) return CUDA_ERROR_INVALID_VALUE;
  std::snprintf(name, static_cast<std::size_t>(length), "Stand-in GPU %d", device);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetPCIBusId(char* bus_id, int length, CUdevice device) {
  if (bus_id == nullptr || length <= 0 || !valid(device)) return CUDA_ERROR_INVALID_VALUE;
  std::snprintf(bus_id, static_cast<std::size_t>(length), "00000000:%02X:00.0", 0x10 + device);
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t* bytes, CUdevice device) {
  if (bytes == nullptr || !valid(device)) return CUDA_ERROR_INVALID_VALUE;
  *bytes = std::size_t{80} << 30;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice device) {
  if (value == nullptr || !valid(device)) return CUDA_ERROR_INVALID_VALUE;
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 132; break;
    default: return CUDA_ERROR_NOT_SUPPORTED;
  }
  return CUDA_SUCCESS;
}

CUresult cuDeviceCanAccessPeer(int* can_access, CUdevice source, CUdevice destination) {
  if (can_access == nullptr || !valid(source) || !valid(destination)) return CUDA_ERROR_INVALID_DEVICE;
  *can_access = source != destination && peer_access(source, destination) ? 1 : 0;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetP2PAttribute(int* value, CUdevice_P2PAttribute attribute, CUdevice source, CUdevice destination) {
  if (value == nullptr || !valid(source) || !valid(destination)) return CUDA_ERROR_INVALID_DEVICE;
  if (attribute != CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK) return CUDA_ERROR_NOT_SUPPORTED;
  *value = 0;
  return CUDA_SUCCESS;
}

}  // extern "C"
