#include "cupti_activities.hpp"

#include <cupti_runtime_cbid.h>

#include <algorithm>
#include <cctype>

#include "gpuprof/collector/cupti_kind_mapping.hpp"
#include "gpuprof/collector/launch_accounting.hpp"

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

// Runtime launches in progress on this thread: a driver launch made inside one is the runtime's own and
// gets no record of its own (seen on CUDA 13), so it is not counted.
thread_local int runtime_launches_in_progress = 0;

// Launches are counted to notice records that never reach us: at the call's exit, when its API record has
// been made, so that a launch the final flush could not include (one still inside the call when the
// recording ended) is not counted as a record another client took.
void count_launch(CUpti_CallbackDomain domain, const CUpti_CallbackData& call) {
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (call.callbackSite == CUPTI_API_ENTER) return void(++runtime_launches_in_progress);
    runtime_launches_in_progress = std::max(0, runtime_launches_in_progress - 1);
  } else if (runtime_launches_in_progress > 0 || call.callbackSite != CUPTI_API_EXIT) {
    return;
  }
  CollectorSession::instance().launch_seen();
}

// Records of a context that is being reset or destroyed must be collected before it goes.
void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId callback_id, const void* data) {
  try {
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API) {
      const auto* call = static_cast<const CUpti_CallbackData*>(data);
      if (call == nullptr) return;
      const auto kind = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? trace::ApiKind::runtime : trace::ApiKind::driver;
      if (LaunchAccounting::is_kernel_launch(kind, callback_id)) return count_launch(domain, *call);
      if (domain == CUPTI_CB_DOMAIN_DRIVER_API || call->callbackSite != CUPTI_API_ENTER) return;
    }
    CollectorSession::instance().flush();
  } catch (...) {
    // Never let anything escape into the CUDA runtime.
  }
}

// Driver launches are counted only where their records are made (the driver kind, or its launches alone).
void count_driver_launches(CUpti_SubscriberHandle subscriber, EnableResult& result) {
  for (const auto id : LaunchAccounting::driver_kernel_launches()) {
    if (cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id) != CUPTI_SUCCESS) {
      result.warnings.emplace_back("driver_launch_callbacks",
                                   "kernels launched through the CUDA driver are not counted: a take-over of the "
                                   "activity buffers is noticed from runtime launches only");
      return;
    }
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

// First of all, so that a CUPTI client started later in the program (torch.profiler)
// finds the subscription taken instead of silently taking over.
bool subscribe_to_flush_points(CUpti_SubscriberHandle& subscriber, EnableResult& result) {
  CUptiResult status = cuptiSubscribe(&subscriber, on_callback, nullptr);
  if (status != CUPTI_SUCCESS) {
    // Another tool holds CUPTI's only subscription; flushing at exit and by timer still works.
    result.warnings.emplace_back("subscribe", "cuptiSubscribe: " + cupti_result_text(status) +
                                                  "; records are not flushed at cudaDeviceReset and a take-over "
                                                  "of the activity buffers cannot be noticed");
    subscriber = nullptr;
    return false;
  }
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020);
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000);
  cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  for (CUpti_CallbackId id = 0; id < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++id) {
    if (LaunchAccounting::is_kernel_launch(trace::ApiKind::runtime, id)) {
      cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id);
    }
  }
  return true;
}

// Buffers come zeroed from our pool (zeroed on the writer thread), so CUPTI need
// not zero them on the program's threads.
void use_zeroed_buffers(EnableResult& result) {
  std::uint8_t zeroed = 1;
  std::size_t size = sizeof zeroed;
  if (cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &size, &zeroed) != CUPTI_SUCCESS) {
    result.warnings.emplace_back("zeroed_buffers", "CUPTI zeroes each activity buffer on the program's thread");
  }
}

// True when the driver's launches get API records of their own (per call, the driver kind being off).
bool choose_api_calls(const CollectorConfig& config, EnableResult& result) {
  bool driver_launch_records = false;
  if (config.trace_api && !config.trace_frequent_api) {
    for (const auto id : frequent_runtime_calls()) {
      if (cuptiActivityEnableRuntimeApi(id, 0) != CUPTI_SUCCESS) {
        result.warnings.emplace_back("frequent_calls", "frequent runtime calls are recorded (cannot leave them out)");
        break;
      }
    }
  }
  if (config.trace_api && !config.trace_driver) {
    driver_launch_records = true;
    for (const auto id : work_submitting_driver_calls()) {
      if (cuptiActivityEnableDriverApi(id, 1) != CUPTI_SUCCESS) {
        result.warnings.emplace_back("driver_launches", "kernels launched through the CUDA driver (cuDNN, cuBLAS, "
                                                        "Triton) have no launching call in the trace");
        driver_launch_records = false;
        break;
      }
    }
  }
  // Queries that found the work unfinished are not waits; CUPTI 13 reports them unless told not to.
  if (config.trace_sync && cuptiActivityEnableAllSyncRecords(0) != CUPTI_SUCCESS) {
    result.warnings.emplace_back("sync_queries", "unfinished event and stream queries are reported by CUPTI");
  }
  return driver_launch_records;
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
  result.subscribed = subscribe_to_flush_points(subscriber, result);
  use_zeroed_buffers(result);
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
      {CUPTI_ACTIVITY_KIND_MEMORY2, "memory2", config.trace_memory, false},
      {CUPTI_ACTIVITY_KIND_RUNTIME, "runtime", config.trace_api, false},
      {CUPTI_ACTIVITY_KIND_DRIVER, "driver", config.trace_driver, false},
      {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, "synchronization", config.trace_sync, false},
      {CUPTI_ACTIVITY_KIND_MARKER, "marker", config.trace_nvtx, false},
      {CUPTI_ACTIVITY_KIND_MARKER_DATA, "marker_data", config.trace_nvtx, false},
      {CUPTI_ACTIVITY_KIND_NAME, "name", true, false},
      {CUPTI_ACTIVITY_KIND_DEVICE, "device", true, false},
      {CUPTI_ACTIVITY_KIND_OVERHEAD, "overhead", true, false},
  };
  bool driver_kind = false;
  for (const auto& request : requests) {
    if (!request.wanted) continue;
    status = cuptiActivityEnable(request.kind);
    driver_kind |= request.kind == CUPTI_ACTIVITY_KIND_DRIVER && status == CUPTI_SUCCESS;
    if (status == CUPTI_SUCCESS) continue;
    if (request.required) {
      result.call = std::string("cuptiActivityEnable(") + request.name + ")";
      result.result = status;
      return result;
    }
    result.warnings.emplace_back(request.name, std::string("cuptiActivityEnable(") + request.name +
                                                   "): " + cupti_result_text(status));
  }
  const bool driver_launch_records = choose_api_calls(config, result) || driver_kind;
  if (result.subscribed && config.trace_api && driver_launch_records) count_driver_launches(subscriber, result);
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
