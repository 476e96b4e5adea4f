#include "gpuprof/launcher/gpu_inventory.hpp"

#include <dlfcn.h>

#include <cstdlib>

namespace gpuprof::launcher {
namespace {

// The driver API's CUresult is an int-sized enum; declaring the two entry points here
// keeps the CUDA headers out of a library that every build has.
using InitFunction = int (*)(unsigned int);
using DeviceCountFunction = int (*)(int*);
constexpr int kCudaSuccess = 0;
constexpr int kCudaErrorNoDevice = 100;
constexpr int kCudaErrorStubLibrary = 34;
constexpr int kCudaErrorInsufficientDriver = 35;

std::string init_failure(int code) {
  switch (code) {
    case kCudaErrorNoDevice: return "the NVIDIA driver sees no CUDA device";
    case kCudaErrorStubLibrary: return "only the CUDA toolkit's stub libcuda is installed, not an NVIDIA driver";
    case kCudaErrorInsufficientDriver: return "the NVIDIA driver is older than the CUDA runtime needs";
    default: return "the NVIDIA driver failed to start (CUDA error " + std::to_string(code) + ")";
  }
}

}  // namespace

GpuInventory find_gpus() {
  // Never closed: a driver is not meant to be unloaded once cuInit ran, and a process asks once.
  void* driver = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == nullptr) return {0, "no NVIDIA driver (libcuda.so.1 cannot be loaded)"};
  const auto init = reinterpret_cast<InitFunction>(::dlsym(driver, "cuInit"));
  const auto device_count = reinterpret_cast<DeviceCountFunction>(::dlsym(driver, "cuDeviceGetCount"));
  if (init == nullptr || device_count == nullptr) return {0, "libcuda.so.1 lacks cuInit or cuDeviceGetCount"};
  if (const int code = init(0); code != kCudaSuccess) return {0, init_failure(code)};
  int count = 0;
  if (const int code = device_count(&count); code != kCudaSuccess) return {0, init_failure(code)};
  if (count > 0) return {count, {}};
  const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
  return {0, visible != nullptr ? std::string("no CUDA device is visible (CUDA_VISIBLE_DEVICES=") + visible + ")"
                                : std::string("the NVIDIA driver sees no CUDA device")};
}

}  // namespace gpuprof::launcher
