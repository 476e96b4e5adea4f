// The NVTX injection entry points. `gpuprof record` names this library in
// NVTX_INJECTION64_PATH, and each entry point goes on to the libcupti this
// library loaded: naming a libcupti file instead could pick another copy than
// the process uses (the toolkit's vs a Python wheel's), whose NVTX records would
// reach a CUPTI with nothing enabled.

#include <cupti.h>

#include "collector_log.hpp"
#include "gpuprof/collector/injection_forwarding.hpp"

namespace {

int forward_to_cupti(const char* entry_point, void* argument) noexcept {
  try {
    const auto call = gpuprof::collector::forward_injection_call(reinterpret_cast<const void*>(&cuptiGetVersion),
                                                                 reinterpret_cast<const void*>(&forward_to_cupti),
                                                                 entry_point, argument);
    if (!call.problem.empty()) gpuprof::collector::log_line("NVTX ranges not recorded: " + call.problem);
    return call.result;
  } catch (...) {
    return 0;  // nothing may escape into NVTX; 0 tells it no tool is attached
  }
}

}  // namespace

// NVTX 3 (nvtx3/ headers, PyTorch, the workloads): the export table getter is passed on untouched.
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(void* get_export_table) {
  return forward_to_cupti("InitializeInjectionNvtx2", get_export_table);
}

// NVTX 2 (libnvToolsExt.so of older toolkits).
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx(void* get_export_table) {
  return forward_to_cupti("InitializeInjectionNvtx", get_export_table);
}

// NVTX extension modules (payload schemas) look for this one in the same library.
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtxExtension(void* module_info) {
  return forward_to_cupti("InitializeInjectionNvtxExtension", module_info);
}
