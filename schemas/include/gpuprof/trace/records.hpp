#pragma once

// Rows of the trace tables as C++ values. std::optional fields are written as
// NULL when empty: unknown stays unknown, never a made-up default.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace gpuprof::trace {

using StringId = std::uint32_t;

// Codes match the lookup tables in trace.sql; never renumber.
enum class CopyKind : std::uint8_t {
  unknown = 0, host_to_device = 1, device_to_host = 2, device_to_device = 3, host_to_host = 4,
  peer_to_peer = 5
};
enum class MemoryKind : std::uint8_t {
  unknown = 0, pageable = 1, pinned = 2, device = 3, managed = 4, array = 5
};
enum class SyncType : std::uint8_t {
  unknown = 0, event = 1, stream_wait_event = 2, stream = 3, context = 4, device = 5
};
enum class ApiKind : std::uint8_t { runtime = 1, driver = 2 };
// What a memory event did (schema 1.3); codes of the memory_operations table.
enum class MemoryOperation : std::uint8_t { alloc = 1, free = 2 };
// Whether a host thread was on a CPU (schema 1.4); codes of the thread_state_kinds table.
enum class ThreadRunState : std::uint8_t { running = 1, not_running = 2 };
enum class Severity : std::uint8_t { info, warning, error };

inline constexpr int kCopyKindCount = 6;

std::string_view to_string(CopyKind kind);
std::string_view to_string(MemoryKind kind);
std::string_view to_string(SyncType type);
std::string_view to_string(ApiKind kind);
std::string_view to_string(MemoryOperation operation);
std::string_view to_string(ThreadRunState state);
std::string_view to_string(Severity severity);
std::optional<CopyKind> copy_kind_from_string(std::string_view name);

struct Dim3 {
  std::int32_t x = 1, y = 1, z = 1;
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

struct DeviceRow {
  std::int32_t id = 0;
  std::optional<std::string> name, uuid, pci_bus_id;
  std::optional<std::int32_t> compute_major, compute_minor, sm_count;
  std::optional<std::int64_t> memory_bytes, memory_bandwidth_bps, host_link_bandwidth_bps;
  friend bool operator==(const DeviceRow&, const DeviceRow&) = default;
};

struct DeviceLinkRow {
  std::int32_t src_device = 0, dst_device = 0;
  std::optional<bool> peer_access;
  std::optional<std::string> link_kind;  // "nvlink", "pcie", "via_host"
  std::optional<std::int32_t> performance_rank;
  friend bool operator==(const DeviceLinkRow&, const DeviceLinkRow&) = default;
};

struct KernelRow {
  std::int32_t device = 0;
  std::optional<std::int64_t> context, stream;
  std::int64_t start_ns = 0, end_ns = 0;
  std::optional<std::int64_t> correlation_id;
  StringId name = 0;
  std::optional<Dim3> grid, block;
  std::optional<std::int32_t> registers_per_thread, static_shared_bytes, dynamic_shared_bytes;
  std::optional<std::int64_t> graph_node_id;
  std::optional<StringId> mangled_name;  // the source's mangled spelling when `name` was demangled
  friend bool operator==(const KernelRow&, const KernelRow&) = default;
};

struct MemcpyRow {
  std::int32_t device = 0;
  std::optional<std::int64_t> context, stream;
  std::int64_t start_ns = 0, end_ns = 0;
  std::optional<std::int64_t> correlation_id;
  CopyKind copy_kind = CopyKind::unknown;
  std::optional<MemoryKind> src_memory_kind, dst_memory_kind;
  std::optional<std::int32_t> src_device, dst_device;
  std::optional<std::int64_t> bytes;
  friend bool operator==(const MemcpyRow&, const MemcpyRow&) = default;
};

struct MemsetRow {
  std::int32_t device = 0;
  std::optional<std::int64_t> context, stream;
  std::int64_t start_ns = 0, end_ns = 0;
  std::optional<std::int64_t> correlation_id;
  std::optional<std::int64_t> bytes;
  friend bool operator==(const MemsetRow&, const MemsetRow&) = default;
};

struct ApiCallRow {
  std::optional<std::int64_t> process_id, thread_id;
  std::int64_t start_ns = 0, end_ns = 0;
  std::optional<std::int64_t> correlation_id;
  StringId name = 0;
  ApiKind kind = ApiKind::runtime;
  std::optional<std::int64_t> return_code;
  friend bool operator==(const ApiCallRow&, const ApiCallRow&) = default;
};

struct SyncRow {
  std::optional<std::int64_t> process_id, thread_id;
  std::int64_t start_ns = 0, end_ns = 0;
  SyncType type = SyncType::unknown;
  std::optional<std::int32_t> device;
  std::optional<std::int64_t> stream, event, correlation_id;
  friend bool operator==(const SyncRow&, const SyncRow&) = default;
};

struct RangeRow {
  std::optional<std::int64_t> process_id, thread_id;
  std::int64_t start_ns = 0, end_ns = 0;
  StringId name = 0;
  std::optional<StringId> domain;
  std::optional<std::int64_t> category;
  bool on_gpu = false;  // Kineto gpu_user_annotation: the range lives on a GPU stream
  std::optional<std::int32_t> device;
  std::optional<std::int64_t> stream, correlation_id;
  friend bool operator==(const RangeRow&, const RangeRow&) = default;
};

// What the source says about the collective a communication kernel ran (schema 1.2).
// The kernel is the one on `device` with `correlation_id`.
struct CollectiveRow {
  std::int32_t device = 0;
  std::int64_t correlation_id = 0;
  StringId name = 0;  // as the source spells it: "allreduce", "_allgather_base", ...
  std::optional<std::int64_t> in_elements, out_elements, in_bytes, out_bytes;
  std::optional<StringId> dtype;
  std::optional<std::int64_t> group_size;
  std::optional<StringId> process_group, group_description, group_ranks;
  friend bool operator==(const CollectiveRow&, const CollectiveRow&) = default;
};

// One allocation or free of GPU-visible memory (schema 1.3). `time_ns` is when
// the source saw it (the allocating call, on the host clock, as CUPTI and the
// PyTorch allocator stamp it).
struct MemoryEventRow {
  std::int32_t device = 0;
  std::optional<std::int64_t> context, stream;
  std::int64_t time_ns = 0;
  std::optional<std::int64_t> correlation_id;
  MemoryOperation operation = MemoryOperation::alloc;
  std::optional<MemoryKind> memory_kind;
  std::optional<std::int64_t> address;
  std::int64_t bytes = 0;  // size allocated or freed, never negative
  // Bytes the source says were in use on the device right after this event
  // (Kineto "Total Allocated"); unknown where the source does not say.
  std::optional<std::int64_t> allocated_after;
  friend bool operator==(const MemoryEventRow&, const MemoryEventRow&) = default;
};

// One stretch of a host thread's time between two switches of the OS scheduler
// (schema 1.4): on a CPU (running) or off it (not running), with why it left the
// CPU where the source says.
struct ThreadStateRow {
  std::optional<std::int64_t> process_id;
  std::int64_t thread_id = 0;
  std::int64_t start_ns = 0, end_ns = 0;
  ThreadRunState state = ThreadRunState::running;
  std::optional<std::int64_t> cpu;  // the CPU it ran on, or was switched out of
  // The OS thread state the source gave when the thread left the CPU (nsys
  // ENUM_SAMPLING_THREAD_STATE: `Interruptible`, `Terminated`, ...) and why it blocked
  // (ENUM_SCHEDULING_THREAD_BLOCK: `Mutex`, `CondVar`, ...); unknown where not given.
  std::optional<StringId> os_state, block_reason;
  friend bool operator==(const ThreadStateRow&, const ThreadStateRow&) = default;
};

struct StatRow {
  std::string name;
  std::int64_t value = 0;
  Severity severity = Severity::info;
  std::optional<std::string> detail;
  friend bool operator==(const StatRow&, const StatRow&) = default;
};

struct StepRow {
  std::optional<std::int32_t> rank;
  std::int32_t device = 0;
  std::int64_t step = 0;
  std::int64_t start_ns = 0, end_ns = 0, busy_ns = 0;
  bool warmup = false;
  friend bool operator==(const StepRow&, const StepRow&) = default;
};

struct GapRow {
  std::optional<std::int32_t> rank;
  std::int32_t device = 0;
  std::int64_t after_step = 0;
  std::int64_t start_ns = 0, end_ns = 0;
  std::string cause;
  friend bool operator==(const GapRow&, const GapRow&) = default;
};

// A list of record types.
template <typename... Rows>
struct RowTypes {};

// The tables TraceWriter::add writes, each declared once with its columns in
// schemas/src/table_declarations.hpp (schemas/README.md, "Adding a table").
using WrittenRows = RowTypes<DeviceRow, DeviceLinkRow, KernelRow, MemcpyRow, MemsetRow, ApiCallRow, SyncRow, RangeRow,
                             CollectiveRow, MemoryEventRow, ThreadStateRow>;

template <typename Row, typename List>
inline constexpr bool kListed = false;
template <typename Row, typename... Rows>
inline constexpr bool kListed<Row, RowTypes<Rows...>> = (std::is_same_v<Row, Rows> || ...);

template <typename Row>
concept WrittenRow = kListed<Row, WrittenRows>;

}  // namespace gpuprof::trace
