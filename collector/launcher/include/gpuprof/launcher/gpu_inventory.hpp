#pragma once

// How many CUDA devices this process can use, asked of the NVIDIA driver
// (libcuda.so.1, loaded at run time so gpuprof runs on machines without it).
// Honours CUDA_VISIBLE_DEVICES, as the programs gpuprof starts will.

#include <string>

namespace gpuprof::launcher {

struct GpuInventory {
  int count = 0;
  std::string reason;  // why there is none, when count is 0
};

GpuInventory find_gpus();

}  // namespace gpuprof::launcher
