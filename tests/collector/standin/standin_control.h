#pragma once

// What the stand-in libcupti.so.13 offers a test host program beyond CUPTI's own
// functions: the host plays the CUDA runtime and driver, so it decides which
// records CUPTI "produces" and when. Test double only: never installed.

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Nanoseconds on the stand-in's GPU clock (what cuptiGetTimestamp returns):
// CLOCK_MONOTONIC plus GPUPROF_STANDIN_CLOCK_SHIFT_NS.
uint64_t standin_timestamp(void);

// Puts one activity record (a CUpti_Activity* struct, `size` bytes, possibly
// larger than this CUPTI's struct as a newer CUPTI emits) into the calling
// thread's activity buffer, as CUPTI does. Records of kinds that are not
// enabled are ignored; with no buffer to be had the record is dropped and
// counted in the global queue. Returns 1 when the record was stored.
int standin_emit(const void* record, size_t size);

// A CUDA API call made by the calling thread: the subscriber's callbacks (entry
// and exit, if enabled for that id) and the API activity record (if its kind and
// id are enabled). `domain` is a CUpti_CallbackDomain (runtime or driver).
void standin_api_call(uint32_t domain, uint32_t callback_id, uint64_t start, uint64_t end, uint32_t correlation);

// A resource event (CUPTI_CB_DOMAIN_RESOURCE), e.g. a context about to be destroyed.
void standin_resource_event(uint32_t callback_id);

// Records CUPTI lost without a buffer to blame: they show up in
// cuptiActivityGetNumDroppedRecords(NULL, 0) and nowhere else.
void standin_add_dropped(size_t count);

// The next buffer completed because it was full is handed over `delay_ms` later
// by CUPTI's worker thread (a late delivery).
void standin_delay_next_completion(uint32_t delay_ms);

// A second CUPTI client registers its own buffer callbacks (as torch.profiler
// does): buffers requested from then on go to it. Returns its cuptiSubscribe result.
int standin_second_client_takes_over(void);

// What the stand-in saw, for tests: buffers handed over to the first client,
// records stored and dropped, requests refused, records emitted after the
// buffer callbacks were owned by a second client.
struct standin_counts {
  uint64_t buffers_completed;
  uint64_t records_stored;
  uint64_t records_dropped;
  uint64_t requests_refused;
  uint64_t records_to_second_client;
};
struct standin_counts standin_get_counts(void);

#ifdef __cplusplus
}
#endif
