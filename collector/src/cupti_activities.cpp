#include "cupti_activities.hpp"

#include <cupti_runtime_cbid.h>

#include <cctype>

#include "collector_session.hpp"

namespace gpuprof::collector {
namespace {

void CUPTIAPI on_buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  CollectorSession::instance().buffer_requested(buffer, size, max_records);
}

void CUPTIAPI on_buffer_completed(CUcontext context, std::uint32_t stream, std::uint8_t* buffer, std::size_t,
                                  std::size_t valid) {
  CollectorSession::instance().buffer_completed(context, stream, buffer, valid);
}

// Records of a context that is being reset or destroyed must be collected before it goes.
void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId, const void* data) {
  try {
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
      const auto* call = static_cast<const CUpti_CallbackData*>(data);
      if (call == nullptr || call->callbackSite != CUPTI_API_ENTER) return;
    }
    CollectorSession::instance().flush(false);
  } catch (...) {
    // Never let anything escape into the CUDA runtime.
  }
}

std::string strip_version_suffix(std::string name) {
  const auto underscore = name.rfind("_v");
  if (underscore == std::string::npos || underscore + 2 >= name.size()) return name;
  for (std::size_t i = underscore + 2; i < name.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return name;
  }
  return name.substr(0, underscore);
}

struct KindRequest {
  CUpti_ActivityKind kind;
  const char* name;
  bool wanted;
  bool required;  // without it there is nothing worth recording
};

void subscribe_to_flush_points(CUpti_SubscriberHandle& subscriber, EnableResult& result) {
  CUptiResult status = cuptiSubscribe(&subscriber, on_callback, nullptr);
  if (status != CUPTI_SUCCESS) {
    // Another tool holds CUPTI's only subscription; flushing at exit and by timer still works.
    result.warnings.emplace_back("subscribe", "cuptiSubscribe: " + cupti_result_text(status) +
                                                  "; records are not flushed at cudaDeviceReset");
    subscriber = nullptr;
    return;
  }
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020);
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
}

}  // namespace

std::string cupti_result_text(CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) == CUPTI_SUCCESS && text != nullptr) return text;
  return "CUPTI error " + std::to_string(static_cast<int>(result));
}

std::optional<std::uint32_t> cupti_version() {
  std::uint32_t version = 0;
  if (cuptiGetVersion(&version) != CUPTI_SUCCESS) return std::nullopt;
  return version;
}

ApiNameResolver api_name_resolver() {
  return [](trace::ApiKind kind, std::uint32_t callback_id) -> std::string {
    const auto domain = kind == trace::ApiKind::runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
    const char* name = nullptr;
    if (cuptiGetCallbackName(domain, callback_id, &name) != CUPTI_SUCCESS || name == nullptr) return {};
    return strip_version_suffix(name);
  };
}

EnableResult enable_activities(const CollectorConfig& config, CUpti_SubscriberHandle& subscriber) {
  EnableResult result;
  CUptiResult status = cuptiActivityRegisterCallbacks(on_buffer_requested, on_buffer_completed);
  if (status != CUPTI_SUCCESS) {
    result.call = "cuptiActivityRegisterCallbacks";
    result.result = status;
    return result;
  }
  // System thread ids (gettid) match what other tools and /proc show.
  if (cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM) != CUPTI_SUCCESS) {
    result.warnings.emplace_back("thread_id_type", "thread ids are CUPTI's default, not system thread ids");
  }
  const KindRequest requests[] = {
      {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, "concurrent_kernel", config.trace_cuda, true},
      {CUPTI_ACTIVITY_KIND_MEMCPY, "memcpy", config.trace_cuda, false},
      {CUPTI_ACTIVITY_KIND_MEMCPY2, "memcpy2", config.trace_cuda, false},
      {CUPTI_ACTIVITY_KIND_MEMSET, "memset", config.trace_cuda, false},
      {CUPTI_ACTIVITY_KIND_RUNTIME, "runtime", config.trace_api, false},
      {CUPTI_ACTIVITY_KIND_DRIVER, "driver", config.trace_driver, false},
      {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "synchronization", config.trace_sync, false},
      {CUPTI_ACTIVITY_KIND_MARKER, "marker", config.trace_nvtx, false},
      {CUPTI_ACTIVITY_KIND_MARKER_DATA, "marker_data", config.trace_nvtx, false},
      {CUPTI_ACTIVITY_KIND_NAME, "name", true, false},
      {CUPTI_ACTIVITY_KIND_DEVICE, "device", true, false},
      {CUPTI_ACTIVITY_KIND_OVERHEAD, "overhead", true, false},
  };
  for (const auto& request : requests) {
    if (!request.wanted) continue;
    status = cuptiActivityEnable(request.kind);
    if (status == CUPTI_SUCCESS) continue;
    if (request.required) {
      result.call = std::string("cuptiActivityEnable(") + request.name + ")";
      result.result = status;
      return result;
    }
    result.warnings.emplace_back(request.name, std::string("cuptiActivityEnable(") + request.name +
                                                   "): " + cupti_result_text(status));
  }
  subscribe_to_flush_points(subscriber, result);
  return result;
}

bool for_each_record(std::uint8_t* buffer, std::size_t valid_bytes,
                     const std::function<void(const CUpti_Activity&)>& visit) {
  CUpti_Activity* record = nullptr;
  for (;;) {
    const CUptiResult status = cuptiActivityGetNextRecord(buffer, valid_bytes, &record);
    if (status == CUPTI_ERROR_MAX_LIMIT_REACHED) return true;
    if (status != CUPTI_SUCCESS || record == nullptr) return false;
    visit(*record);
  }
}

}  // namespace gpuprof::collector
