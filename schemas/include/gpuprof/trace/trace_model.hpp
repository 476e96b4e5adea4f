#pragma once

// The in-memory form of one trace file, as columns (struct of arrays).
// GPU tables are sorted by (device, stream, start); host tables by start.
// Nullable integer columns hold kUnknown / kUnknown32 where the file has NULL.
// Columns constant over long runs of rows (RunColumn) are stored once per run.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuprof/trace/records.hpp"
#include "gpuprof/trace/run_column.hpp"

namespace gpuprof::trace {

inline constexpr std::int64_t kUnknown = std::numeric_limits<std::int64_t>::min();
inline constexpr std::int32_t kUnknown32 = std::numeric_limits<std::int32_t>::min();

// Columns every GPU activity table has. Device and stream are constant over
// each stream's rows (the table is grouped by stream), so stored once per run.
struct GpuColumns {
  RunColumn<std::int32_t> device;
  RunColumn<std::int64_t> stream;
  std::vector<std::int64_t> context, start_ns, end_ns, correlation_id;

  std::size_t size() const { return start_ns.size(); }
  template <typename Visitor>
  void visit_gpu_columns(Visitor&& visit) {
    visit(device), visit(context), visit(stream), visit(start_ns), visit(end_ns), visit(correlation_id);
  }
};

struct KernelTable : GpuColumns {
  std::vector<StringId> name;
  // Launch details: {0,0,0} / kUnknown32 where unknown; empty when not loaded (LoadOptions).
  std::vector<Dim3> grid, block;
  std::vector<std::int32_t> registers_per_thread, static_shared_bytes, dynamic_shared_bytes;
  std::vector<std::int64_t> graph_node_id;
  // The source's mangled name where `name` was demangled, else kNoString; loaded
  // with the launch details, for showing the full name. Analyses use `name`.
  std::vector<StringId> mangled_name;

  template <typename Visitor>
  void visit_columns(Visitor&& visit) {
    visit_gpu_columns(visit);
    visit(name), visit(grid), visit(block), visit(registers_per_thread), visit(static_shared_bytes),
        visit(dynamic_shared_bytes), visit(graph_node_id), visit(mangled_name);
  }
};

struct MemcpyTable : GpuColumns {
  std::vector<CopyKind> copy_kind;
  std::vector<MemoryKind> src_memory_kind, dst_memory_kind;  // MemoryKind::unknown where NULL
  std::vector<std::int32_t> src_device, dst_device;
  std::vector<std::int64_t> bytes;

  template <typename Visitor>
  void visit_columns(Visitor&& visit) {
    visit_gpu_columns(visit);
    visit(copy_kind), visit(src_memory_kind), visit(dst_memory_kind), visit(src_device), visit(dst_device),
        visit(bytes);
  }
};

struct MemsetTable : GpuColumns {
  std::vector<std::int64_t> bytes;

  template <typename Visitor>
  void visit_columns(Visitor&& visit) {
    visit_gpu_columns(visit);
    visit(bytes);
  }
};

// Columns every host-side table has. A trace's rows come from one process or
// a few, so the process is stored once per run of rows.
struct HostColumns {
  RunColumn<std::int64_t> process_id;
  std::vector<std::int64_t> thread_id, start_ns, end_ns;

  std::size_t size() const { return start_ns.size(); }
  template <typename Visitor>
  void visit_host_columns(Visitor&& visit) {
    visit(process_id), visit(thread_id), visit(start_ns), visit(end_ns);
  }
};

struct ApiCallTable : HostColumns {
  std::vector<std::int64_t> correlation_id, return_code;
  std::vector<StringId> name;
  std::vector<ApiKind> kind;

  template <typename Visitor>
  void visit_columns(Visitor&& visit) {
    visit_host_columns(visit);
    visit(correlation_id), visit(return_code), visit(name), visit(kind);
  }
};

struct SyncTable : HostColumns {
  std::vector<SyncType> type;
  std::vector<std::int32_t> device;
  std::vector<std::int64_t> stream, event, correlation_id;

  template <typename Visitor>
  void visit_columns(Visitor&& visit) {
    visit_host_columns(visit);
    visit(type), visit(device), visit(stream), visit(event), visit(correlation_id);
  }
};

inline constexpr StringId kNoString = std::numeric_limits<StringId>::max();

struct RangeTable : HostColumns {
  std::vector<StringId> name, domain;  // domain is kNoString where NULL
  std::vector<std::int64_t> category;
  std::vector<std::uint8_t> on_gpu;
  std::vector<std::int32_t> device;
  std::vector<std::int64_t> stream, correlation_id;

  template <typename Visitor>
  void visit_columns(Visitor&& visit) {
    visit_host_columns(visit);
    visit(name), visit(domain), visit(category), visit(on_gpu), visit(device), visit(stream),
        visit(correlation_id);
  }
};

// Collective metadata of communication kernels (schema 1.2; empty for older
// files and for sources without it). Unsorted: rows are found by kernel.
struct CollectiveTable {
  std::vector<std::int32_t> device;
  std::vector<std::int64_t> correlation_id;
  std::vector<StringId> name;
  // kUnknown where NULL.
  std::vector<std::int64_t> in_elements, out_elements, in_bytes, out_bytes, group_size;
  // kNoString where NULL.
  std::vector<StringId> dtype, process_group, group_description, group_ranks;

  std::size_t size() const { return device.size(); }
  template <typename Visitor>
  void visit_columns(Visitor&& visit) {
    visit(device), visit(correlation_id), visit(name), visit(in_elements), visit(out_elements), visit(in_bytes),
        visit(out_bytes), visit(group_size), visit(dtype), visit(process_group), visit(group_description),
        visit(group_ranks);
  }
};

// Allocations and frees of GPU-visible memory (schema 1.3), sorted by (device,
// time); ties keep the file's order, which is the order the source saw them.
struct MemoryEventTable {
  std::vector<std::int32_t> device;
  std::vector<std::int64_t> context, stream, time_ns, correlation_id;  // kUnknown where NULL
  std::vector<MemoryOperation> operation;
  std::vector<MemoryKind> memory_kind;  // MemoryKind::unknown where NULL
  std::vector<std::int64_t> address, bytes, allocated_after;  // kUnknown where NULL (bytes never is)

  std::size_t size() const { return device.size(); }
  template <typename Visitor>
  void visit_columns(Visitor&& visit) {
    visit(device), visit(context), visit(stream), visit(time_ns), visit(correlation_id), visit(operation),
        visit(memory_kind), visit(address), visit(bytes), visit(allocated_after);
  }
};

// When host threads were on a CPU (schema 1.4), sorted by (thread, start); the
// stretches of one thread never overlap (the loader leaves out and counts any
// that would). thread_id is never kUnknown.
struct ThreadStateTable : HostColumns {
  std::vector<ThreadRunState> state;
  std::vector<std::int64_t> cpu;                // kUnknown where NULL
  std::vector<StringId> os_state, block_reason;  // kNoString where NULL

  template <typename Visitor>
  void visit_columns(Visitor&& visit) {
    visit_host_columns(visit);
    visit(state), visit(cpu), visit(os_state), visit(block_reason);
  }
};

// Rows [begin, end) of a GPU table that ran on one stream of one device.
struct StreamSlice {
  std::int32_t device = 0;
  std::int64_t stream = kUnknown;
  std::size_t begin = 0, end = 0;
};

struct TraceModel {
  std::string path;
  std::map<std::string, std::string> meta;
  std::vector<std::string> strings;  // indexed by StringId
  std::vector<DeviceRow> devices;
  std::vector<DeviceLinkRow> device_links;
  std::vector<StatRow> stats;

  KernelTable kernels;
  MemcpyTable memcpys;
  MemsetTable memsets;
  std::vector<StreamSlice> kernel_streams, memcpy_streams, memset_streams;

  ApiCallTable api_calls;
  SyncTable syncs;
  RangeTable ranges;
  CollectiveTable collectives;
  MemoryEventTable memory_events;
  // Whether the file has a memory_events table at all (schema 1.3 on): an older
  // file's memory use was not recorded, which is not the same as no allocation.
  bool memory_events_table = false;
  // Empty unless the source recorded the OS scheduler (Nsight Systems with CPU
  // context switches); loaded with the API calls.
  ThreadStateTable thread_states;

  std::optional<std::int32_t> rank() const;
  std::optional<std::int32_t> world_size() const;
  std::string_view string(StringId id) const;
  std::size_t event_count() const;
  // Devices that appear in any GPU table or in `devices`, ascending.
  std::vector<std::int32_t> device_ids() const;
};

struct LoadOptions {
  // Grid, block, registers, shared memory and graph node of each kernel. The
  // analyses do not use them and decoding them halves the kernel load rate, so
  // they can be skipped; the KernelTable detail columns are then left empty.
  bool load_kernel_launch_details = true;
  // The GPU tables' contexts and the API calls' return codes: shown by the
  // exporter and the app, used by no analysis, and 80 MB of a 10 M-event
  // report's peak. Left out, those columns stay empty.
  bool load_contexts_and_return_codes = true;
  bool load_api_calls = true;
  bool load_syncs = true;
  bool load_ranges = true;
  // For a progress line: called with the rows read since its last call, every
  // few thousand rows and at the end of each table, from either of the two
  // loading threads (so it must be thread-safe). Their sum reaches at most
  // rows_to_load (rows read twice, when column chunks turn out unusable, aside).
  std::function<void(std::int64_t rows)> on_rows;
};

// Opens (see TraceFile) and loads a trace. Throws TraceError.
TraceModel load_trace_model(const std::string& path, const LoadOptions& options = {});

// The rows load_trace_model reads with these options, from each table's
// largest row id: exact for files gpuprof writes, an upper bound otherwise, and
// cheap (no table is scanned). The total behind a loading percentage.
std::int64_t rows_to_load(const std::string& path, const LoadOptions& options = {});

}  // namespace gpuprof::trace
