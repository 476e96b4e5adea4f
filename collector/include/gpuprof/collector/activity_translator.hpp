#pragma once

// Turns CUPTI activity records into trace rows. Pure with respect to CUPTI: it
// reads record structs and never calls libcupti, so tests feed it hand-built
// records on machines without a GPU.

#include <cupti_activity.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpuprof/collector/launch_accounting.hpp"
#include "gpuprof/collector/range_pairing.hpp"
#include "gpuprof/trace/records.hpp"
#include "gpuprof/trace/stats_catalogue.hpp"
#include "gpuprof/trace/trace_writer.hpp"

namespace gpuprof::collector {

// Names an API call from its callback id ("cudaMemcpy"); the collector asks
// CUPTI, tests pass a table. An empty result is written as "<kind>_api_<cbid>".
using ApiNameResolver = std::function<std::string(trace::ApiKind kind, std::uint32_t callback_id)>;

struct TranslationCounters {
  std::map<std::string, std::int64_t> records_per_kind;  // "kernel" -> 12 (filled by write_counters)
  std::map<std::string, std::int64_t> problems;          // "problem_end_before_start" -> 1
  std::map<std::string, std::string> problem_details;    // first example of each problem
  std::int64_t overhead_ns = 0;
  std::int64_t overhead_records = 0;
  std::int64_t rows = 0;
  std::int64_t sync_queries_left_out = 0;
  std::int64_t peer_copies_reported_twice = 0;
};

class ActivityTranslator {
 public:
  ActivityTranslator(trace::TraceWriter& writer, ApiNameResolver api_names);

  // Writes the rows of one record, or counts it as a problem. Never throws for a
  // bad record; a failing writer still throws (the caller stops collection).
  void translate(const CUpti_Activity& record);
  // Called after each activity buffer: writes rows that waited for records
  // arriving later in the same buffer (range categories, threads of syncs).
  void end_batch();
  // Called before finish() when records were lost elsewhere (CUPTI dropped them,
  // a buffer was unreadable): kernels missing at exit may be among those.
  void records_were_dropped() { launches_.records_were_dropped(); }
  // Called once at the end: counts ranges that never closed and kernels lost at
  // exit, writes the counters.
  void finish();
  // Writes the counters to collector_stats (they replace earlier values).
  void write_counters();

  // Merges what is known about a device from another source (the driver).
  void merge_device(const trace::DeviceRow& device);

  const TranslationCounters& counters() const { return counters_; }
  // API records (runtime and driver) of kernel launches seen, to compare with the launches CUPTI's
  // callbacks saw.
  std::int64_t launches_recorded() const { return launches_recorded_; }

 private:
  void kernel(const CUpti_ActivityKernel10& record);
  void memcpy(const CUpti_ActivityMemcpy6& record);
  void peer_memcpy(const CUpti_ActivityMemcpyPtoP4& record);
  void memset(const CUpti_ActivityMemset4& record);
  void memory(const CUpti_ActivityMemory4& record);
  void api_call(const CUpti_ActivityAPI& record, trace::ApiKind kind);
  void synchronization(const CUpti_ActivitySynchronization2& record);
  void marker(const CUpti_ActivityMarker2& record);
  void marker_data(const CUpti_ActivityMarkerData2& record);
  void name(const CUpti_ActivityName& record);
  void device(const CUpti_ActivityDevice5& record);
  void overhead(const CUpti_ActivityOverhead3& record);

  bool check_interval(std::uint64_t start, std::uint64_t end, const char* kind);
  void problem(trace::StatId id, const std::string& detail);
  void remember_context(std::uint32_t context, std::uint32_t device);
  void write_pending_syncs();
  void write_pending_peer_copies(bool final);
  void write_completed_ranges();
  void write_kernels_lost_at_exit();

  trace::TraceWriter& writer_;
  ApiNameResolver api_names_;
  TranslationCounters counters_;
  RangePairing ranges_;
  LaunchAccounting launches_;
  struct PendingSync {
    trace::SyncRow row;
    std::uint32_t context = 0;
  };
  std::vector<PendingSync> pending_syncs_;
  // A plain memcpy record of kind PtoP names one device; it waits a batch for its
  // peer record (same correlation id), which names both and is the one written.
  struct PendingPeerCopy {
    trace::MemcpyRow row;
    int batches_waited = 0;
  };
  std::vector<PendingPeerCopy> pending_peer_copies_;
  std::unordered_map<std::uint32_t, int> recent_peer_copies_;  // correlation id -> batch it arrived in
  int batch_number_ = 0;
  std::int64_t launches_recorded_ = 0;
  // Learned from API records: which thread made the call with this correlation id,
  // and which call it was. A ring indexed by correlation id: a sync record arrives
  // next to its API record, never tens of thousands of calls later, and a ring
  // costs no allocation per call.
  struct Caller {
    std::uint32_t correlation_id = 0;
    std::uint32_t callback_id = 0;
    std::int64_t process_id = 0;
    std::int64_t thread_id = 0;
    trace::ApiKind kind = trace::ApiKind::runtime;
  };
  std::vector<Caller> recent_callers_;
  const Caller* caller_of(std::uint32_t correlation_id) const;
  // Records per CUPTI activity kind, by kind number (a map of names per record was a fifth of the cost).
  std::vector<std::int64_t> records_by_kind_;
  std::unordered_map<std::uint32_t, std::int32_t> device_by_context_;
  std::map<std::int32_t, trace::DeviceRow> devices_;
  std::unordered_map<std::uint64_t, trace::StringId> api_name_ids_;
};

}  // namespace gpuprof::collector
