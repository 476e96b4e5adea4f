// A stand-in for libcupti.so.13 on machines without a GPU (a test double, never
// installed). It keeps CUPTI's contracts as the collector meets them: buffers are
// requested on the thread whose records need one (CUDA 13 keeps a buffer per
// thread), full buffers are handed back by a worker thread of its own, a
// non-forced flush returns only buffers without records still being written and
// a forced flush returns all, drop counters are per queue and reset when read,
// callback names carry their `_vNNNN` suffix, and a second client that registers
// buffer callbacks takes the buffers over. Failures are scripted through
// GPUPROF_STANDIN_FAIL (a comma list: register, subscribe, enable_<kind number>).
// GPUPROF_STANDIN_CALL_AFTER_FORCED_FLUSH: right after the first forced flush, a
// cudaDeviceSynchronize record is made on the flushing thread, as a thread of the
// program still using CUDA does while a signal's stop flushes beside it.
// GPUPROF_STANDIN_PAUSE_AFTER_HANDOVER_MS: a thread that filled its buffer waits
// this long before asking for the next, so the client may have it back by then.
// A forced flush, as CUPTI's blocking one, returns only once the buffer its worker
// thread was handing over is handed over. GPUPROF_STANDIN_HOLD_HANDOVER_MS: the worker
// holds the first full buffer it takes until a forced flush begins, then this long more.
// A runtime kernel launch makes the driver's cuLaunchKernel inside it: subscribers
// get that driver call's callbacks, and it gets no record of its own (as the
// collector saw on CUDA 13).

#include <cupti.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "standin_control.h"

namespace {

#include "cupti_callback_names.inc"

constexpr std::uint64_t kRecordMagic = 0x5354414E44494E31ull;  // "STANDIN1"
// Far above the host's own correlation ids.
constexpr std::uint32_t kCallAfterFlushCorrelation = 4'000'000'000u;

// Each record in a buffer: this header, then the record, padded to 8 bytes.
struct RecordHeader {
  std::uint64_t magic;
  std::uint64_t size;
};

struct Buffer {
  std::uint8_t* data = nullptr;
  std::size_t size = 0;
  std::size_t used = 0;
  bool first_client = true;  // requested from the client that registered first
};

struct ThreadQueue {
  std::mutex mutex;
  Buffer buffer;
};

struct Completion {
  Buffer buffer;
  std::chrono::steady_clock::time_point not_before;
};

struct State {
  std::mutex mutex;
  CUpti_BuffersCallbackRequestFunc request = nullptr;
  CUpti_BuffersCallbackCompleteFunc complete = nullptr;
  int registrations = 0;
  std::set<int> enabled_kinds;
  std::set<std::uint32_t> disabled_runtime_ids;
  std::set<std::uint32_t> enabled_driver_ids;
  bool all_sync_records = true;
  CUpti_CallbackFunc subscriber = nullptr;
  void* subscriber_data = nullptr;
  std::set<std::pair<int, std::uint32_t>> enabled_callbacks;
  std::vector<std::shared_ptr<ThreadQueue>> queues;
  std::atomic<std::uint64_t> dropped_global{0};
  std::uint32_t delay_next_ms = 0;
  // The worker thread hands over full buffers, as CUPTI's own thread does.
  std::deque<Completion> completions;
  std::condition_variable completions_ready;
  bool worker_started = false;
  // Taken off `completions` by the worker and not yet handed over: a forced flush waits for them.
  int handovers_in_flight = 0;
  bool first_handover_taken = false;
  bool forced_flush_began = false;
  std::condition_variable handover_changed;
  std::atomic<std::uint64_t> buffers_completed{0}, records_stored{0}, records_dropped{0}, requests_refused{0},
      records_to_second_client{0};
};

State& state() {
  static auto* instance = new State();  // never destroyed: the worker and atexit handlers outlive main
  return *instance;
}

bool scripted_failure(const std::string& what) {
  const char* list = std::getenv("GPUPROF_STANDIN_FAIL");
  if (list == nullptr) return false;
  const std::string text = std::string(",") + list + ",";
  return text.find("," + what + ",") != std::string::npos;
}

// The second client (a profiler started inside the program) just counts what it gets.
void CUPTIAPI second_client_request(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *size = 1 << 16;
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, *size));
  *max_records = 0;
}

void CUPTIAPI second_client_complete(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t) {
  std::free(buffer);
}

// Buffers go back to the client that supplied them.
void deliver(const Buffer& buffer) {
  CUpti_BuffersCallbackCompleteFunc complete = second_client_complete;
  if (buffer.first_client) {
    std::lock_guard lock(state().mutex);
    complete = state().complete;
  }
  if (buffer.first_client) state().buffers_completed += 1;
  if (complete != nullptr) complete(nullptr, 0, buffer.data, buffer.size, buffer.used);
}

long hold_handover_ms() {
  static const long hold_ms = [] {
    const char* text = std::getenv("GPUPROF_STANDIN_HOLD_HANDOVER_MS");
    return text != nullptr ? std::strtol(text, nullptr, 10) : 0L;
  }();
  return hold_ms;
}

// The slowest schedule for a flush: the worker has just taken a full buffer when the final flush begins.
void hold_first_handover(std::unique_lock<std::mutex>& lock) {
  auto& s = state();
  const bool first = !s.first_handover_taken;
  s.first_handover_taken = true;
  s.handover_changed.notify_all();
  if (hold_handover_ms() <= 0 || !first) return;
  s.handover_changed.wait(lock, [&] { return s.forced_flush_began; });
  lock.unlock();
  std::this_thread::sleep_for(std::chrono::milliseconds(hold_handover_ms()));
  lock.lock();
}

void worker_loop() {
  auto& s = state();
  std::unique_lock lock(s.mutex);
  for (;;) {
    s.completions_ready.wait(lock, [&] { return !s.completions.empty(); });
    const auto not_before = s.completions.front().not_before;
    if (std::chrono::steady_clock::now() < not_before) {
      s.completions_ready.wait_until(lock, not_before);
      continue;
    }
    const Completion next = s.completions.front();
    s.completions.pop_front();
    s.handovers_in_flight += 1;
    hold_first_handover(lock);
    lock.unlock();
    deliver(next.buffer);
    lock.lock();
    s.handovers_in_flight -= 1;
    s.handover_changed.notify_all();
  }
}

// Before the flush takes what is queued, so buffers reach the client in the order they were filled.
void wait_for_handovers_in_flight() {
  auto& s = state();
  std::unique_lock lock(s.mutex);
  // Scripted: a full buffer handed to the worker is taken by it before the flush begins.
  if (hold_handover_ms() > 0) {
    s.handover_changed.wait(lock, [&] { return !s.worker_started || s.first_handover_taken; });
  }
  s.forced_flush_began = true;
  s.handover_changed.notify_all();
  s.handover_changed.wait(lock, [&] { return s.handovers_in_flight == 0; });
}

void hand_to_worker(const Buffer& buffer) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  if (!s.worker_started) {
    std::thread(worker_loop).detach();
    s.worker_started = true;
  }
  s.completions.push_back({buffer, std::chrono::steady_clock::now() + std::chrono::milliseconds(s.delay_next_ms)});
  s.delay_next_ms = 0;
  s.completions_ready.notify_one();
}

ThreadQueue& this_thread_queue() {
  thread_local std::shared_ptr<ThreadQueue> queue;
  if (!queue) {
    queue = std::make_shared<ThreadQueue>();
    std::lock_guard lock(state().mutex);
    state().queues.push_back(queue);
  }
  return *queue;
}

bool request_buffer(Buffer& buffer) {
  CUpti_BuffersCallbackRequestFunc request = nullptr;
  bool first_client = true;
  {
    std::lock_guard lock(state().mutex);
    request = state().registrations > 1 ? second_client_request : state().request;
    first_client = state().registrations <= 1;
  }
  if (request == nullptr) return false;
  std::uint8_t* data = nullptr;
  std::size_t size = 0, max_records = 0;
  request(&data, &size, &max_records);
  if (data == nullptr || size < sizeof(RecordHeader) + sizeof(CUpti_Activity)) {
    if (first_client) state().requests_refused += 1;
    return false;
  }
  buffer = {data, size, 0, first_client};
  return true;
}

bool kind_wanted(const CUpti_Activity& record) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  if (record.kind != CUPTI_ACTIVITY_KIND_DRIVER && s.enabled_kinds.count(static_cast<int>(record.kind)) == 0) {
    return false;
  }
  if (record.kind == CUPTI_ACTIVITY_KIND_RUNTIME) {
    const auto& api = reinterpret_cast<const CUpti_ActivityAPI&>(record);
    return s.disabled_runtime_ids.count(api.cbid) == 0;
  }
  if (record.kind == CUPTI_ACTIVITY_KIND_DRIVER) {
    const auto& api = reinterpret_cast<const CUpti_ActivityAPI&>(record);
    return s.enabled_kinds.count(CUPTI_ACTIVITY_KIND_DRIVER) != 0 || s.enabled_driver_ids.count(api.cbid) != 0;
  }
  if (record.kind == CUPTI_ACTIVITY_KIND_SYNCHRONIZATION && !s.all_sync_records) {
    return reinterpret_cast<const CUpti_ActivitySynchronization2&>(record).returnValue == 0;
  }
  return true;
}

std::size_t padded(std::size_t size) { return (size + 7) / 8 * 8; }

// The slowest schedule for a thread's next request: the client's writer has had time to return the full buffer.
void pause_after_handover() {
  static const long pause_ms = [] {
    const char* text = std::getenv("GPUPROF_STANDIN_PAUSE_AFTER_HANDOVER_MS");
    return text != nullptr ? std::strtol(text, nullptr, 10) : 0L;
  }();
  if (pause_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
}

}  // namespace

extern "C" {

uint64_t standin_timestamp(void) {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  static const std::int64_t offset = [] {
    const char* shift = std::getenv("GPUPROF_STANDIN_CLOCK_SHIFT_NS");
    return shift != nullptr ? std::strtoll(shift, nullptr, 10) : 0;
  }();
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000ull + static_cast<std::uint64_t>(now.tv_nsec) +
         static_cast<std::uint64_t>(offset);
}

int standin_emit(const void* record, size_t size) {
  const auto& activity = *static_cast<const CUpti_Activity*>(record);
  if (!kind_wanted(activity)) return 0;
  auto& queue = this_thread_queue();
  std::lock_guard lock(queue.mutex);
  const std::size_t needed = sizeof(RecordHeader) + padded(size);
  if (queue.buffer.data != nullptr && queue.buffer.used + needed > queue.buffer.size) {
    hand_to_worker(queue.buffer);
    queue.buffer = {};
    pause_after_handover();
  }
  if (queue.buffer.data == nullptr && (!request_buffer(queue.buffer) || needed > queue.buffer.size)) {
    state().dropped_global += 1;
    state().records_dropped += 1;
    return 0;
  }
  auto* at = queue.buffer.data + queue.buffer.used;
  const RecordHeader header{kRecordMagic, padded(size)};
  std::memcpy(at, &header, sizeof header);
  std::memcpy(at + sizeof header, record, size);
  queue.buffer.used += needed;
  if (queue.buffer.first_client) {
    state().records_stored += 1;
  } else {
    state().records_to_second_client += 1;
  }
  return 1;
}

}  // extern "C"

namespace {

bool is_runtime_kernel_launch(uint32_t domain, uint32_t callback_id) {
  return domain == CUPTI_CB_DOMAIN_RUNTIME_API && (callback_id == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000 ||
                                                   callback_id == CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000);
}

// The subscriber, with its data, when it enabled this callback; a null function otherwise.
std::pair<CUpti_CallbackFunc, void*> subscriber_of(int domain, uint32_t callback_id) {
  std::lock_guard lock(state().mutex);
  if (state().enabled_callbacks.count({domain, callback_id}) == 0) return {nullptr, nullptr};
  return {state().subscriber, state().subscriber_data};
}

// The driver launch a runtime launch makes: its callbacks, no record.
void nested_driver_launch(uint32_t correlation) {
  const auto [subscriber, user_data] = subscriber_of(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel);
  if (subscriber == nullptr) return;
  CUpti_CallbackData data{};
  data.correlationId = correlation;
  for (const auto site : {CUPTI_API_ENTER, CUPTI_API_EXIT}) {
    data.callbackSite = site;
    subscriber(user_data, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &data);
  }
}

}  // namespace

extern "C" {

void standin_api_call(uint32_t domain, uint32_t callback_id, uint64_t start, uint64_t end, uint32_t correlation) {
  const auto [subscriber, user_data] = subscriber_of(static_cast<int>(domain), callback_id);
  CUpti_CallbackData data{};
  data.correlationId = correlation;
  if (subscriber != nullptr) {
    data.callbackSite = CUPTI_API_ENTER;
    subscriber(user_data, static_cast<CUpti_CallbackDomain>(domain), callback_id, &data);
  }
  if (is_runtime_kernel_launch(domain, callback_id)) nested_driver_launch(correlation);
  CUpti_ActivityAPI record{};
  record.kind = domain == CUPTI_CB_DOMAIN_DRIVER_API ? CUPTI_ACTIVITY_KIND_DRIVER : CUPTI_ACTIVITY_KIND_RUNTIME;
  record.cbid = callback_id;
  record.start = start;
  record.end = end;
  record.processId = static_cast<std::uint32_t>(::getpid());
  record.threadId = static_cast<std::uint32_t>(::gettid());
  record.correlationId = correlation;
  standin_emit(&record, sizeof record);
  if (subscriber != nullptr) {
    data.callbackSite = CUPTI_API_EXIT;
    subscriber(user_data, static_cast<CUpti_CallbackDomain>(domain), callback_id, &data);
  }
}

void standin_resource_event(uint32_t callback_id) {
  const auto [subscriber, user_data] = subscriber_of(CUPTI_CB_DOMAIN_RESOURCE, callback_id);
  CUpti_ResourceData data{};
  if (subscriber != nullptr) subscriber(user_data, CUPTI_CB_DOMAIN_RESOURCE, callback_id, &data);
}

void standin_add_dropped(size_t count) {
  state().dropped_global += count;
  state().records_dropped += count;
}

void standin_delay_next_completion(uint32_t delay_ms) {
  std::lock_guard lock(state().mutex);
  state().delay_next_ms = delay_ms;
}

int standin_second_client_takes_over(void) {
  CUpti_SubscriberHandle handle = nullptr;
  const CUptiResult subscribed = cuptiSubscribe(&handle, nullptr, nullptr);
  cuptiActivityRegisterCallbacks(second_client_request, second_client_complete);
  return static_cast<int>(subscribed);
}

struct standin_counts standin_get_counts(void) {
  auto& s = state();
  return {s.buffers_completed.load(), s.records_stored.load(), s.records_dropped.load(), s.requests_refused.load(),
          s.records_to_second_client.load()};
}

CUptiResult CUPTIAPI cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc request,
                                                    CUpti_BuffersCallbackCompleteFunc complete) {
  if (scripted_failure("register")) return CUPTI_ERROR_NOT_INITIALIZED;
  if (request == nullptr || complete == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  std::lock_guard lock(state().mutex);
  if (++state().registrations == 1) state().request = request, state().complete = complete;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind) {
  if (scripted_failure("enable_" + std::to_string(static_cast<int>(kind)))) return CUPTI_ERROR_NOT_COMPATIBLE;
  std::lock_guard lock(state().mutex);
  state().enabled_kinds.insert(static_cast<int>(kind));
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind kind) {
  std::lock_guard lock(state().mutex);
  state().enabled_kinds.erase(static_cast<int>(kind));
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnableRuntimeApi(CUpti_CallbackId cbid, uint8_t enable) {
  std::lock_guard lock(state().mutex);
  if (enable) {
    state().disabled_runtime_ids.erase(cbid);
  } else {
    state().disabled_runtime_ids.insert(cbid);
  }
  return CUPTI_SUCCESS;
}

// One driver call's records without CUPTI_ACTIVITY_KIND_DRIVER (that kind, enabled, records them all).
CUptiResult CUPTIAPI cuptiActivityEnableDriverApi(CUpti_CallbackId cbid, uint8_t enable) {
  std::lock_guard lock(state().mutex);
  if (enable) {
    state().enabled_driver_ids.insert(cbid);
  } else {
    state().enabled_driver_ids.erase(cbid);
  }
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnableAllSyncRecords(uint8_t enable) {
  std::lock_guard lock(state().mutex);
  state().all_sync_records = enable != 0;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivitySetAttribute(CUpti_ActivityAttribute, size_t* size, void* value) {
  if (size == nullptr || value == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  return CUPTI_SUCCESS;
}

// Forced: every buffer with records. Otherwise only those of threads not writing a record right now.
CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag) {
  if (flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) wait_for_handovers_in_flight();
  std::vector<std::shared_ptr<ThreadQueue>> queues;
  {
    std::lock_guard lock(state().mutex);
    queues = state().queues;
  }
  std::vector<Buffer> ready;
  {
    // Full buffers waiting for the worker go too, as CUPTI's flush hands over what it holds; only a
    // completion scripted to come late (standin_delay_next_completion) stays behind.
    std::lock_guard lock(state().mutex);
    auto& waiting = state().completions;
    const auto now = std::chrono::steady_clock::now();
    for (auto it = waiting.begin(); it != waiting.end();) {
      if (it->not_before <= now) {
        ready.push_back(it->buffer);
        it = waiting.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& queue : queues) {
    std::unique_lock lock(queue->mutex, std::defer_lock);
    if (flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) {
      lock.lock();
    } else if (!lock.try_lock()) {
      continue;
    }
    if (queue->buffer.data != nullptr && queue->buffer.used > 0) {
      ready.push_back(queue->buffer);
      queue->buffer = {};
    }
  }
  for (const auto& buffer : ready) deliver(buffer);
  if ((flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) && std::getenv("GPUPROF_STANDIN_CALL_AFTER_FORCED_FLUSH") != nullptr) {
    static std::atomic<bool> made{false};
    if (!made.exchange(true)) {
      const auto now = standin_timestamp();
      standin_api_call(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, now,
                       now + 1'000, kCallAfterFlushCorrelation);
    }
  }
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t* buffer, size_t valid, CUpti_Activity** record) {
  if (buffer == nullptr || record == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  std::size_t offset = 0;
  if (*record != nullptr) {
    const auto* current = reinterpret_cast<std::uint8_t*>(*record);
    RecordHeader header{};
    std::memcpy(&header, current - sizeof header, sizeof header);
    offset = static_cast<std::size_t>(current - buffer) + header.size;
  }
  if (offset >= valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  RecordHeader header{};
  if (offset + sizeof header > valid) return CUPTI_ERROR_INVALID_KIND;
  std::memcpy(&header, buffer + offset, sizeof header);
  if (header.magic != kRecordMagic || offset + sizeof header + header.size > valid) return CUPTI_ERROR_INVALID_KIND;
  *record = reinterpret_cast<CUpti_Activity*>(buffer + offset + sizeof header);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext context, uint32_t, size_t* dropped) {
  if (dropped == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  *dropped = context == nullptr ? state().dropped_global.exchange(0) : 0;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback,
                                    void* user_data) {
  if (subscriber == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  if (scripted_failure("subscribe")) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  std::lock_guard lock(state().mutex);
  if (state().subscriber != nullptr) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  state().subscriber = callback != nullptr ? callback : [](void*, CUpti_CallbackDomain, CUpti_CallbackId,
                                                           const void*) {};
  state().subscriber_data = user_data;
  *subscriber = reinterpret_cast<CUpti_SubscriberHandle>(&state());
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle) {
  std::lock_guard lock(state().mutex);
  state().subscriber = nullptr;
  state().enabled_callbacks.clear();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle, CUpti_CallbackDomain domain,
                                         CUpti_CallbackId cbid) {
  std::lock_guard lock(state().mutex);
  if (enable) {
    state().enabled_callbacks.insert({static_cast<int>(domain), cbid});
  } else {
    state().enabled_callbacks.erase({static_cast<int>(domain), cbid});
  }
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid, const char** name) {
  if (name == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  static std::mutex names_mutex;
  // Never destroyed: the collector may ask while the process's exit handlers run.
  static auto& names = *new std::map<std::pair<int, std::uint32_t>, std::string>();
  std::string_view base;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < std::size(kRuntimeCallbackNames)) {
    base = kRuntimeCallbackNames[cbid];
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < std::size(kDriverCallbackNames)) {
    base = kDriverCallbackNames[cbid];
  }
  if (base.empty()) return CUPTI_ERROR_INVALID_PARAMETER;
  std::lock_guard lock(names_mutex);
  // CUPTI's names carry the version of the API they belong to.
  auto [entry, inserted] = names.try_emplace({static_cast<int>(domain), cbid}, std::string(base) + "_v3020");
  *name = entry->second.c_str();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult result, const char** text) {
  if (text == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  static thread_local std::string message;
  message = "CUPTI_STANDIN_ERROR_" + std::to_string(static_cast<int>(result));
  *text = message.c_str();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t* timestamp) {
  if (timestamp == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  *timestamp = standin_timestamp();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t* version) {
  if (version == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  *version = CUPTI_API_VERSION;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSetThreadIdType(CUpti_ActivityThreadIdType) { return CUPTI_SUCCESS; }

}  // extern "C"
