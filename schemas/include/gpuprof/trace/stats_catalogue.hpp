#pragma once

// Every stat the collector, the importers, the loader and the synthetic
// generator write to collector_stats, declared once: its name in the file (a
// contract with every trace already written: never rename one), the severity it
// is written with when it reports a problem, whether it counts as lost data, and
// one line saying what it counts. Writers name a stat by its StatId; readers look
// a row's name up with find_stat, and keep and show a name this version does not
// know (a newer or foreign file), counting it as data loss only when its name
// says "dropped", as every version before this catalogue did.
//
// A keyed stat is a family: its name is a prefix and the writer appends a key
// (a CUPTI activity kind, a Kineto category, a column), one row per key.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "gpuprof/trace/records.hpp"

namespace gpuprof::trace {

// X(id, name, keyed, severity, data_loss, description)
#define GPUPROF_TRACE_STATS(X)                                                                                         \
  /* Collector: the recording itself. */                                                                               \
  X(dropped_records, "dropped_records", false, warning, true,                                                          \
    "activity records CUPTI dropped because its buffers were full")                                                    \
  X(records_dropped_after_stop, "records_dropped_after_stop", false, warning, true,                                    \
    "records CUPTI made as the recording stopped and the collector no longer took")                                    \
  X(in_flight_at_exit, "dropped.in_flight_at_exit", false, warning, true,                                              \
    "kernels launched whose record never came: GPU work still running when the program exited")                        \
  X(in_flight_at_exit_unchecked, "dropped.in_flight_at_exit_unchecked", false, info, true,                             \
    "kernels lost at exit could not be counted (the detail says why)")                                                 \
  X(buffer_requests_refused, "buffer_requests_refused", false, warning, true,                                          \
    "CUPTI buffer requests the collector refused at its memory limit; CUPTI drops their records")                      \
  X(buffers_not_returned, "buffers_not_returned", false, warning, true,                                                \
    "activity buffers CUPTI never handed back; their records are lost")                                                \
  X(activity_buffers_taken, "activity_buffers_taken", false, error, true,                                              \
    "launches whose activity records another CUPTI client took")                                                       \
  X(buffers_used, "buffers_used", false, info, false, "activity buffers handed to CUPTI")                              \
  X(buffer_requests_after_stop, "buffer_requests_after_stop", false, warning, false,                                   \
    "buffer requests CUPTI made after the recording stopped")                                                          \
  X(invalid_buffers, "invalid_buffers", false, warning, false, "buffers whose records could not be read")              \
  X(launches_seen_by_callback, "launches_seen_by_callback", false, info, false,                                        \
    "kernel launches the API callback saw, to check that every launch has its record")                                 \
  X(cupti_initialization, "cupti_initialization", false, error, false,                                                 \
    "CUPTI could not be set up: the value is its error code and nothing was recorded")                                 \
  X(cupti_warning, "cupti_warning_", true, warning, false, "a CUPTI activity kind that could not be enabled")          \
  X(driver_probe, "driver_probe", false, warning, false, "the GPU driver could not be asked about its devices")        \
  X(records_per_kind, "records_", true, info, false, "activity records received of one CUPTI kind")                    \
  X(sync_queries_left_out, "sync_queries_left_out", false, info, false,                                                \
    "synchronization records that were only queries, left out: a query is not a wait")                                 \
  X(peer_copies_reported_twice, "peer_copies_reported_twice", false, info, false,                                      \
    "peer copies CUPTI reported both as peer and as plain copies, written once")                                       \
  X(cupti_overhead_ns, "cupti_overhead_ns", false, info, false, "time CUPTI reported spending on its own work")        \
  /* Collector: records it could not use (problem_<what>), in the order of their names. */                             \
  X(problem_end_before_start, "problem_end_before_start", false, warning, false, "records that end before they start") \
  X(problem_memory_size_out_of_range, "problem_memory_size_out_of_range", false, warning, false,                       \
    "memory records of 2^63 bytes or more")                                                                            \
  X(problem_memory_unknown_operation, "problem_memory_unknown_operation", false, warning, false,                       \
    "memory records of an unknown operation")                                                                          \
  X(problem_memory_without_device, "problem_memory_without_device", false, warning, false,                             \
    "memory records naming no valid device")                                                                           \
  X(problem_missing_timestamp, "problem_missing_timestamp", false, warning, false, "records without a usable time")    \
  X(problem_name_record_unknown_object, "problem_name_record_unknown_object", false, warning, false,                   \
    "NAME records for an object kind this collector does not name")                                                    \
  X(problem_name_record_without_name, "problem_name_record_without_name", false, warning, false,                       \
    "NAME records without a name")                                                                                     \
  X(problem_peer_copy_without_devices, "problem_peer_copy_without_devices", false, warning, false,                     \
    "peer copies whose devices CUPTI did not give")                                                                    \
  X(problem_range_end_without_start, "problem_range_end_without_start", false, warning, false,                         \
    "NVTX range ends that close no range")                                                                             \
  X(problem_unclosed_ranges, "problem_unclosed_ranges", false, warning, false, "NVTX ranges started but never ended")  \
  X(problem_unknown_copy_kind, "problem_unknown_copy_kind", false, warning, false, "copies of an unknown direction")   \
  X(problem_unknown_marker_flags, "problem_unknown_marker_flags", false, warning, false,                               \
    "NVTX marker records with unknown flags")                                                                          \
  X(problem_unknown_record_kind, "problem_unknown_record_kind", false, warning, false,                                 \
    "CUPTI records of a kind this collector does not read")                                                            \
  X(problem_unknown_sync_type, "problem_unknown_sync_type", false, warning, false,                                     \
    "synchronization records of an unknown type")                                                                      \
  X(problem_unnamed_kernel, "problem_unnamed_kernel", false, warning, false, "kernel records without a name")          \
  /* Synthetic generator. */                                                                                           \
  X(records_written, "records_written", false, info, false, "rows gpuprof synth wrote")                                \
  /* Loading a trace. */                                                                                               \
  X(load_invalid, "load.invalid.", true, error, false, "rows left out when loading because a column was invalid")      \
  X(load_chunks, "load.chunks.", true, warning, false,                                                                 \
    "column chunks of a table that could not be used; its rows were read instead")                                     \
  /* Importers: rows written per table. */                                                                             \
  X(import_rows_kernels, "import.rows.kernels", false, info, false, "kernel rows imported")                            \
  X(import_rows_memcpys, "import.rows.memcpys", false, info, false, "copy rows imported")                              \
  X(import_rows_memsets, "import.rows.memsets", false, info, false, "memset rows imported")                            \
  X(import_rows_api_calls, "import.rows.api_calls", false, info, false, "CUDA API call rows imported")                 \
  X(import_rows_syncs, "import.rows.syncs", false, info, false, "synchronization rows imported")                       \
  X(import_rows_ranges, "import.rows.ranges", false, info, false, "NVTX or annotation range rows imported")            \
  X(import_rows_collectives, "import.rows.collectives", false, info, false, "collective rows imported")                \
  X(import_rows_memory_events, "import.rows.memory_events", false, info, false, "allocation rows imported")            \
  X(import_rows_thread_states, "import.rows.thread_states", false, info, false, "thread scheduling rows imported")     \
  /* Importers: any source. */                                                                                         \
  X(import_string_too_long, "import.string_too_long", false, warning, false, "strings cut to the longest kept")        \
  X(import_gpu_clock_shift_ns, "import.gpu_clock_shift_ns", false, info, false,                                        \
    "shift applied to GPU times to put them on the host clock")                                                        \
  X(import_gpu_clock_shift_refused, "import.gpu_clock_shift_refused", false, warning, false,                           \
    "GPU times that looked off the host clock but could not be shifted safely")                                        \
  X(import_gpu_clock_move_refused, "import.gpu_clock_move_refused", false, warning, false,                             \
    "a GPU clock move left undone: it gave negative launch delays or a GPU span beyond the host's")                   \
  X(import_gpu_clock_segments, "import.gpu_clock_segments", false, info, false,                                        \
    "segments of the piecewise fit from GPU to host clock")                                                            \
  /* Importers: Kineto (PyTorch profiler JSON). */                                                                     \
  X(import_malformed, "import.malformed.", true, warning, false, "events of a category left out as malformed")         \
  X(import_skipped, "import.skipped.", true, info, false, "events of a kind gpuprof does not import, left out")        \
  X(import_unknown_category, "import.unknown_category.", true, warning, false,                                         \
    "events of an unknown category, left out")                                                                         \
  X(import_kineto_unknown_copy_kind, "import.kineto.unknown_copy_kind", false, warning, false,                         \
    "copies whose direction Kineto did not give")                                                                      \
  X(import_kineto_no_distributed_info, "import.kineto.no_distributed_info", false, info, false,                        \
    "traces without distributedInfo: rank and world size unknown")                                                     \
  X(import_kineto_no_rank, "import.kineto.no_rank", false, warning, false, "distributedInfo without a valid rank")     \
  X(import_kineto_gradient_shape_unreadable, "import.kineto.gradient_shape_unreadable", false, info, false,            \
    "gradient shapes that could not be read")                                                                          \
  X(import_kineto_memory_bad_event, "import.kineto.memory_bad_event.", true, warning, false,                           \
    "memory events left out for an invalid field")                                                                     \
  X(import_kineto_memory_host_events, "import.kineto.memory_host_events", false, info, false,                          \
    "memory events of host memory, left out")                                                                          \
  X(import_kineto_memory_other_device_type, "import.kineto.memory_other_device_type.", true, warning, false,           \
    "memory events of a device type other than CUDA, left out")                                                        \
  X(import_kineto_memory_bad_total, "import.kineto.memory_bad_total", false, warning, false,                           \
    "memory events with an invalid allocated total")                                                                   \
  X(import_kineto_collective_bad_value, "import.kineto.collective_bad_value", false, warning, false,                   \
    "collectives with an invalid size or count")                                                                       \
  X(import_kineto_collective_without_correlation, "import.kineto.collective_without_correlation", false, warning,      \
    false, "collectives that name no kernel")                                                                          \
  X(import_kineto_collective_unknown_dtype, "import.kineto.collective_unknown_dtype.", true, warning, false,           \
    "collectives of an unknown data type")                                                                             \
  X(import_kineto_collective_shape_unreadable, "import.kineto.collective_shape_unreadable", false, warning, false,     \
    "collective shapes that could not be read")                                                                        \
  X(import_kineto_collective_kernel_unsized, "import.kineto.collective_kernel_unsized", false, info, false,            \
    "collective kernels whose size the trace does not give")                                                           \
  /* Importers: Nsight Systems SQLite. */                                                                              \
  X(import_nsys_invalid_times_kernels, "import.nsys.invalid_times.kernels", false, warning, false,                     \
    "kernel rows without valid times, left out")                                                                       \
  X(import_nsys_invalid_times_memcpys, "import.nsys.invalid_times.memcpys", false, warning, false,                     \
    "copy rows without valid times, left out")                                                                         \
  X(import_nsys_invalid_times_memsets, "import.nsys.invalid_times.memsets", false, warning, false,                     \
    "memset rows without valid times, left out")                                                                       \
  X(import_nsys_invalid_times_api_calls, "import.nsys.invalid_times.api_calls", false, warning, false,                 \
    "API call rows without valid times, left out")                                                                     \
  X(import_nsys_invalid_times_syncs, "import.nsys.invalid_times.syncs", false, warning, false,                         \
    "synchronization rows without valid times, left out")                                                              \
  X(import_nsys_missing_string, "import.nsys.missing_string", false, warning, false,                                   \
    "rows naming a StringIds id that is absent")                                                                       \
  X(import_nsys_non_cuda_adapters, "import.nsys.non_cuda_adapters", false, info, false,                                \
    "GPU adapters that are not CUDA devices, left out")                                                                \
  X(import_nsys_skipped_event_class, "import.nsys.skipped_event_class.", true, info, false,                            \
    "NVTX events of a class gpuprof does not import")                                                                  \
  X(import_nsys_unclosed_nvtx_ranges, "import.nsys.unclosed_nvtx_ranges", false, warning, false,                       \
    "NVTX ranges without an end")                                                                                      \
  X(import_nsys_memory_bad_row, "import.nsys.memory_bad_row.", true, warning, false,                                   \
    "memory rows left out for an invalid column")                                                                      \
  X(import_nsys_memory_unknown_kind, "import.nsys.memory_unknown_kind", false, warning, false,                         \
    "memory rows of an unknown kind")                                                                                  \
  X(import_nsys_memory_table_unreadable, "import.nsys.memory_table_unreadable", false, warning, false,                 \
    "a memory table that could not be read")                                                                           \
  X(import_nsys_sched_bad_row, "import.nsys.sched_bad_row.", true, warning, false,                                     \
    "scheduling rows left out for an invalid column")                                                                  \
  X(import_nsys_sched_out_of_order, "import.nsys.sched_out_of_order", false, info, false,                              \
    "scheduling rows out of time order, sorted")                                                                       \
  X(import_nsys_sched_table_unreadable, "import.nsys.sched_table_unreadable", false, warning, false,                   \
    "a scheduling table that could not be read")                                                                       \
  X(import_nsys_sched_unknown_state, "import.nsys.sched_unknown_state", false, warning, false,                         \
    "scheduling rows of an unknown thread state")                                                                      \
  X(import_nsys_sched_unknown_block_reason, "import.nsys.sched_unknown_block_reason", false, warning, false,           \
    "scheduling rows of an unknown block reason")                                                                      \
  X(import_nsys_sched_unpaired, "import.nsys.sched_unpaired", false, warning, false,                                   \
    "thread switches without their pair")                                                                              \
  /* Importers: nvprof / Visual Profiler. */                                                                           \
  X(import_nvprof_invalid_times_kernels, "import.nvprof.invalid_times.kernels", false, warning, false,                 \
    "kernel rows without valid times, left out")                                                                       \
  X(import_nvprof_invalid_times_memcpys, "import.nvprof.invalid_times.memcpys", false, warning, false,                 \
    "copy rows without valid times, left out")                                                                         \
  X(import_nvprof_invalid_times_memsets, "import.nvprof.invalid_times.memsets", false, warning, false,                 \
    "memset rows without valid times, left out")                                                                       \
  X(import_nvprof_invalid_times_api_calls, "import.nvprof.invalid_times.api_calls", false, warning, false,             \
    "API call rows without valid times, left out")                                                                     \
  X(import_nvprof_invalid_times_syncs, "import.nvprof.invalid_times.syncs", false, warning, false,                     \
    "synchronization rows without valid times, left out")                                                              \
  X(import_nvprof_invalid_times_nvtx_markers, "import.nvprof.invalid_times.nvtx_markers", false, warning, false,       \
    "NVTX markers without valid times, left out")                                                                      \
  X(import_nvprof_missing_string, "import.nvprof.missing_string", false, warning, false,                               \
    "rows naming a StringTable id that is absent")                                                                     \
  X(import_nvprof_unknown_callback_ids, "import.nvprof.unknown_callback_ids", false, warning, false,                   \
    "API calls of an unknown callback id")                                                                             \
  X(import_nvprof_unclosed_nvtx_ranges, "import.nvprof.unclosed_nvtx_ranges", false, warning, false,                   \
    "NVTX ranges without an end")                                                                                      \
  X(import_nvprof_nvtx_sync_markers, "import.nvprof.nvtx_sync_markers", false, info, false,                            \
    "NVTX synchronization markers, left out")                                                                          \
  X(import_nvprof_nvtx_marks, "import.nvprof.nvtx_marks", false, info, false, "NVTX instant marks, left out")          \
  X(import_nvprof_unknown_marker_flags, "import.nvprof.unknown_marker_flags", false, warning, false,                   \
    "NVTX markers with unknown flags")                                                                                 \
  X(import_nvprof_duplicate_nvtx_ids, "import.nvprof.duplicate_nvtx_ids", false, warning, false,                       \
    "NVTX ranges opened twice with one id")                                                                            \
  X(import_nvprof_unmatched_nvtx_ends, "import.nvprof.unmatched_nvtx_ends", false, warning, false,                     \
    "NVTX range ends that close no range")

enum class StatId : std::uint16_t {
#define GPUPROF_STAT_ID(id, name, keyed, severity, data_loss, description) id,
  GPUPROF_TRACE_STATS(GPUPROF_STAT_ID)
#undef GPUPROF_STAT_ID
};

struct StatInfo {
  StatId id;
  std::string_view name;  // for a keyed stat, the prefix its keys follow
  bool keyed;
  Severity severity;  // written with this when it reports a problem; a zero count may be written as info
  bool data_loss;     // a non-zero count means records are missing from the trace
  std::string_view description;
};

std::span<const StatInfo> stats_catalogue();
const StatInfo& stat_info(StatId id);

// The name written to collector_stats: the stat's own, or a keyed stat's prefix and key.
std::string stat_name(StatId id);
std::string stat_name(StatId id, std::string_view key);

// A stat's name as a writer gives it: a StatId, or a keyed StatId and its key.
// Built only from the catalogue, so that no writer can spell a name by hand.
class StatName {
 public:
  StatName(StatId id);  // NOLINT(google-explicit-constructor): count(StatId::x, ...) reads best
  StatName(StatId id, std::string_view key);
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

// The catalogue entry of a name read from a file, nullopt for a name this version
// does not know. An exact name wins over a keyed family whose prefix it starts with.
const StatInfo* find_stat(std::string_view name);

// Whether a row reports lost records: a non-zero count of a data-loss stat, or
// of an unknown stat whose name says "dropped" (the rule before this catalogue).
bool reports_data_loss(const StatRow& row);

// The description shown beside a row, or one saying the name is unknown.
std::string_view stat_description(std::string_view name);

}  // namespace gpuprof::trace
