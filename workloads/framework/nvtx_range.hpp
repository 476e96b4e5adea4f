#pragma once

#include <string>

#include <nvtx3/nvToolsExt.h>

namespace gpuprof::workloads {

// The NVTX domain "gpuprof" that the analyzer's step detection looks for.
inline nvtxDomainHandle_t gpuprof_nvtx_domain() {
  static const nvtxDomainHandle_t domain = nvtxDomainCreateA("gpuprof");
  return domain;
}

// An instant mark; `gpuprof.meta KEY=VALUE` marks state facts about the run that the
// analyzer reads (see analysis/run_facts.hpp).
inline void nvtx_mark(const std::string& message) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message.c_str();
  nvtxDomainMarkEx(gpuprof_nvtx_domain(), &attributes);
}

// A host range ("step 12", "forward", ...) open for the lifetime of the object.
// Ranges nest, so a step's phases appear inside the step on the timeline.
class NvtxRange {
 public:
  explicit NvtxRange(const std::string& name) {
    nvtxEventAttributes_t attributes{};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = name.c_str();
    nvtxDomainRangePushEx(gpuprof_nvtx_domain(), &attributes);
  }
  ~NvtxRange() { nvtxDomainRangePop(gpuprof_nvtx_domain()); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace gpuprof::workloads
