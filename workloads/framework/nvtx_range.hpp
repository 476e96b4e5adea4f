#pragma once

#include <string>

#include <nvtx3/nvToolsExt.h>

namespace gpuprof::workloads {

// The NVTX domain "gpuprof" that the analyzer's step detection looks for.
inline nvtxDomainHandle_t gpuprof_nvtx_domain() {
  static const nvtxDomainHandle_t domain = nvtxDomainCreateA("gpuprof");
  return domain;
}

// Attributes of an event whose message is `text` (kept alive by the caller).
inline nvtxEventAttributes_t nvtx_attributes(const std::string& text) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = text.c_str();
  return attributes;
}

// An instant mark; `gpuprof.meta KEY=VALUE` marks state facts about the run that the
// analyzer reads (see analysis/run_facts.hpp).
inline void nvtx_mark(const std::string& message) {
  const auto attributes = nvtx_attributes(message);
  nvtxDomainMarkEx(gpuprof_nvtx_domain(), &attributes);
}

// A host range ("step 12", "forward", ...) open for the lifetime of the object.
// Ranges nest, so a step's phases appear inside the step on the timeline.
class NvtxRange {
 public:
  explicit NvtxRange(const std::string& name) {
    const auto attributes = nvtx_attributes(name);
    nvtxDomainRangePushEx(gpuprof_nvtx_domain(), &attributes);
  }
  ~NvtxRange() { nvtxDomainRangePop(gpuprof_nvtx_domain()); }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;
};

}  // namespace gpuprof::workloads
