// The stand-in libcupti's NVTX side: the collector hands NVTX's
// InitializeInjectionNvtx2 on to the libcupti it loaded, and this answers it the
// way CUPTI does, through NVTX's export table: it fills the core and domain
// function slots, and every range or mark a program makes with the real nvtx3
// headers becomes a MARKER activity record.

#include <cupti_activity.h>
// Declarations only: this library is what NVTX calls, not a user of it.
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "standin_control.h"

namespace {

std::atomic<std::uint32_t> next_marker_id{1};
thread_local std::vector<std::pair<std::uint32_t, const char*>> pushed;  // (id, domain) of open push ranges

// CUPTI copies the strings it is given; records keep pointing at these until the process ends.
const char* kept(const char* text) {
  if (text == nullptr) return nullptr;
  static std::mutex mutex;
  static auto* strings = new std::set<std::string>();
  std::lock_guard lock(mutex);
  return strings->insert(text).first->c_str();
}

const char* message_of(const nvtxEventAttributes_t* attributes) {
  if (attributes == nullptr || attributes->messageType != NVTX_MESSAGE_TYPE_ASCII) return nullptr;
  return attributes->message.ascii;
}

void emit_marker(std::uint32_t id, CUpti_ActivityFlag flag, const char* name, const char* domain) {
  CUpti_ActivityMarker2 record{};
  record.kind = CUPTI_ACTIVITY_KIND_MARKER;
  record.flags = flag;
  record.timestamp = standin_timestamp();
  record.id = id;
  record.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  record.objectId.pt.processId = static_cast<std::uint32_t>(::getpid());
  record.objectId.pt.threadId = static_cast<std::uint32_t>(::gettid());
  record.name = kept(name);
  record.domain = kept(domain);
  standin_emit(&record, sizeof record);
}

void emit_category(std::uint32_t id, const nvtxEventAttributes_t* attributes) {
  if (attributes == nullptr || attributes->category == 0) return;
  CUpti_ActivityMarkerData2 record{};
  record.kind = CUPTI_ACTIVITY_KIND_MARKER_DATA;
  record.id = id;
  record.category = attributes->category;
  standin_emit(&record, sizeof record);
}

int push(const char* name, const char* domain, const nvtxEventAttributes_t* attributes) {
  const auto id = next_marker_id++;
  emit_marker(id, CUPTI_ACTIVITY_FLAG_MARKER_START, name, domain);
  emit_category(id, attributes);
  pushed.emplace_back(id, domain);
  return static_cast<int>(pushed.size()) - 1;
}

int pop() {
  if (pushed.empty()) return -1;
  const auto [id, domain] = pushed.back();
  pushed.pop_back();
  emit_marker(id, CUPTI_ACTIVITY_FLAG_MARKER_END, nullptr, domain);
  return static_cast<int>(pushed.size());
}

nvtxRangeId_t start(const char* name, const char* domain) {
  const auto id = next_marker_id++;
  emit_marker(id, CUPTI_ACTIVITY_FLAG_MARKER_START, name, domain);
  return id;
}

void end(nvtxRangeId_t id) { emit_marker(static_cast<std::uint32_t>(id), CUPTI_ACTIVITY_FLAG_MARKER_END, nullptr, nullptr); }

void mark(const char* name, const char* domain) {
  emit_marker(next_marker_id++, CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, name, domain);
}

// CUPTI reports a thread's NVTX name as a NAME record.
void NVTX_API name_os_thread(std::uint32_t thread_id, const char* name) {
  CUpti_ActivityName record{};
  record.kind = CUPTI_ACTIVITY_KIND_NAME;
  record.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  record.objectId.pt.processId = static_cast<std::uint32_t>(::getpid());
  record.objectId.pt.threadId = thread_id;
  record.name = kept(name);
  standin_emit(&record, sizeof record);
}

// Domain handles are the domain's name, kept for the process's life.
const char* domain_name(nvtxDomainHandle_t domain) { return reinterpret_cast<const char*>(domain); }

int NVTX_API push_a(const char* message) { return push(message, nullptr, nullptr); }
int NVTX_API push_ex(const nvtxEventAttributes_t* attributes) { return push(message_of(attributes), nullptr, attributes); }
int NVTX_API pop_core() { return pop(); }
nvtxRangeId_t NVTX_API start_a(const char* message) { return start(message, nullptr); }
nvtxRangeId_t NVTX_API start_ex(const nvtxEventAttributes_t* attributes) { return start(message_of(attributes), nullptr); }
void NVTX_API end_core(nvtxRangeId_t id) { end(id); }
void NVTX_API mark_a(const char* message) { mark(message, nullptr); }
void NVTX_API mark_ex(const nvtxEventAttributes_t* attributes) { mark(message_of(attributes), nullptr); }
nvtxDomainHandle_t NVTX_API domain_create(const char* name) {
  return reinterpret_cast<nvtxDomainHandle_t>(const_cast<char*>(kept(name)));
}
void NVTX_API domain_destroy(nvtxDomainHandle_t) {}
int NVTX_API domain_push(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  return push(message_of(attributes), domain_name(domain), attributes);
}
int NVTX_API domain_pop(nvtxDomainHandle_t) { return pop(); }
nvtxRangeId_t NVTX_API domain_start(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  return start(message_of(attributes), domain_name(domain));
}
void NVTX_API domain_end(nvtxDomainHandle_t, nvtxRangeId_t id) { end(id); }
void NVTX_API domain_mark(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  mark(message_of(attributes), domain_name(domain));
}

template <typename Function>
void fill(NvtxFunctionTable table, unsigned int size, unsigned int slot, Function function) {
  if (table != nullptr && slot <= size && table[slot] != nullptr) {
    *table[slot] = reinterpret_cast<NvtxFunctionPointer>(function);
  }
}

bool fill_core(const NvtxExportTableCallbacks& callbacks) {
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (!callbacks.GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &table, &size)) return false;
  fill(table, size, NVTX_CBID_CORE_RangePushA, push_a);
  fill(table, size, NVTX_CBID_CORE_RangePushEx, push_ex);
  fill(table, size, NVTX_CBID_CORE_RangePop, pop_core);
  fill(table, size, NVTX_CBID_CORE_RangeStartA, start_a);
  fill(table, size, NVTX_CBID_CORE_RangeStartEx, start_ex);
  fill(table, size, NVTX_CBID_CORE_RangeEnd, end_core);
  fill(table, size, NVTX_CBID_CORE_MarkA, mark_a);
  fill(table, size, NVTX_CBID_CORE_MarkEx, mark_ex);
  fill(table, size, NVTX_CBID_CORE_NameOsThreadA, name_os_thread);
  return true;
}

bool fill_core2(const NvtxExportTableCallbacks& callbacks) {
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (!callbacks.GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size)) return false;
  fill(table, size, NVTX_CBID_CORE2_DomainCreateA, domain_create);
  fill(table, size, NVTX_CBID_CORE2_DomainDestroy, domain_destroy);
  fill(table, size, NVTX_CBID_CORE2_DomainRangePushEx, domain_push);
  fill(table, size, NVTX_CBID_CORE2_DomainRangePop, domain_pop);
  fill(table, size, NVTX_CBID_CORE2_DomainRangeStartEx, domain_start);
  fill(table, size, NVTX_CBID_CORE2_DomainRangeEnd, domain_end);
  fill(table, size, NVTX_CBID_CORE2_DomainMarkEx, domain_mark);
  return true;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table) {
  if (get_table == nullptr) return 0;
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr || callbacks->struct_size < sizeof(NvtxExportTableCallbacks)) return 0;
  return fill_core(*callbacks) && fill_core2(*callbacks) ? 1 : 0;
}
