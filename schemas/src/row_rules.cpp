#include "row_rules.hpp"

#include "event_chunks.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <limits>

#include "gpuprof/trace/records.hpp"

namespace gpuprof::trace {
namespace {

constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kInt32Min = std::numeric_limits<std::int32_t>::min();

bool within(std::int64_t value, std::int64_t low, std::int64_t high) { return value >= low && value <= high; }

template <typename Values>
bool keeps(const Values& row, const ColumnRule& rule, const std::vector<std::uint8_t>& strings_present) {
  const int type = row.type(rule.column);
  const bool null = type == RowValues::kNull;
  // Text, real or blob in an integer column would be read as a made-up number.
  if (!null && type != RowValues::kInteger) return false;
  const std::int64_t value = row.i64(rule.column);
  const auto string_exists = [&] {
    return value >= 0 && static_cast<std::uint64_t>(value) < strings_present.size() &&
           strings_present[static_cast<std::size_t>(value)] != 0;
  };
  switch (rule.rule) {
    case Rule::integer: return !null;
    case Rule::integer_or_null: return true;
    case Rule::int32_or_null: return null || within(value, kInt32Min, kInt32Max);
    case Rule::count: return !null && value >= 0;
    case Rule::count_or_null: return null || value >= 0;
    case Rule::positive_or_null: return null || value >= 1;
    case Rule::device: return !null && within(value, 0, kInt32Max);
    case Rule::device_or_null: return null || within(value, 0, kInt32Max);
    case Rule::time: return !null && value >= 0;
    case Rule::end_time:
      return !null && row.type(rule.column - 1) == RowValues::kInteger && value >= row.i64(rule.column - 1);
    case Rule::string_id: return !null && string_exists();
    case Rule::string_id_or_null: return null || string_exists();
    case Rule::enum_value: return !null && within(value, rule.low, rule.high);
    case Rule::enum_or_null: return null || within(value, rule.low, rule.high);
  }
  return false;
}

// Columns 0-5 of kernels, memcpys and memsets.
#define GPU_COLUMN_RULES                                                                                      \
  ColumnRule{0, "device", Rule::device}, ColumnRule{1, "context", Rule::integer_or_null},                     \
      ColumnRule{2, "stream", Rule::integer_or_null}, ColumnRule{3, "start_ns", Rule::time},                  \
      ColumnRule{4, "end_ns", Rule::end_time}, ColumnRule {                                                   \
    5, "correlation_id", Rule::integer_or_null                                                                \
  }
// Columns 0-3 of api_calls, syncs and ranges.
#define HOST_COLUMN_RULES                                                                                     \
  ColumnRule{0, "process_id", Rule::integer_or_null}, ColumnRule{1, "thread_id", Rule::integer_or_null},      \
      ColumnRule{2, "start_ns", Rule::time}, ColumnRule {                                                     \
    3, "end_ns", Rule::end_time                                                                               \
  }

constexpr std::int64_t kLastCopyKind = static_cast<std::int64_t>(CopyKind::peer_to_peer);
constexpr std::int64_t kLastMemoryKind = static_cast<std::int64_t>(MemoryKind::array);
constexpr std::int64_t kLastSyncType = static_cast<std::int64_t>(SyncType::device);

constexpr std::array kKernelBase = {GPU_COLUMN_RULES, ColumnRule{6, "name_id", Rule::string_id}};
constexpr std::array kKernelDetailed = {
    GPU_COLUMN_RULES,
    ColumnRule{6, "name_id", Rule::string_id},
    ColumnRule{7, "grid_x", Rule::int32_or_null},
    ColumnRule{8, "grid_y", Rule::int32_or_null},
    ColumnRule{9, "grid_z", Rule::int32_or_null},
    ColumnRule{10, "block_x", Rule::int32_or_null},
    ColumnRule{11, "block_y", Rule::int32_or_null},
    ColumnRule{12, "block_z", Rule::int32_or_null},
    ColumnRule{13, "registers_per_thread", Rule::int32_or_null},
    ColumnRule{14, "static_shared_bytes", Rule::int32_or_null},
    ColumnRule{15, "dynamic_shared_bytes", Rule::int32_or_null},
    ColumnRule{16, "graph_node_id", Rule::integer_or_null},
    ColumnRule{17, "mangled_name_id", Rule::string_id_or_null},  // since 1.1
};
constexpr std::array kMemcpy = {
    GPU_COLUMN_RULES,
    ColumnRule{6, "copy_kind", Rule::enum_value, 0, kLastCopyKind},
    ColumnRule{7, "src_memory_kind", Rule::enum_or_null, 0, kLastMemoryKind},
    ColumnRule{8, "dst_memory_kind", Rule::enum_or_null, 0, kLastMemoryKind},
    ColumnRule{9, "src_device", Rule::device_or_null},
    ColumnRule{10, "dst_device", Rule::device_or_null},
    ColumnRule{11, "bytes", Rule::count_or_null},
};
constexpr std::array kMemset = {GPU_COLUMN_RULES, ColumnRule{6, "bytes", Rule::count_or_null}};
constexpr std::array kApiCall = {
    HOST_COLUMN_RULES,
    ColumnRule{4, "correlation_id", Rule::integer_or_null},
    ColumnRule{5, "name_id", Rule::string_id},
    ColumnRule{6, "kind", Rule::enum_value, static_cast<std::int64_t>(ApiKind::runtime),
               static_cast<std::int64_t>(ApiKind::driver)},
    ColumnRule{7, "return_code", Rule::integer_or_null},
};
constexpr std::array kSync = {
    HOST_COLUMN_RULES,
    ColumnRule{4, "sync_type", Rule::enum_value, 0, kLastSyncType},
    ColumnRule{5, "device", Rule::device_or_null},
    ColumnRule{6, "stream", Rule::integer_or_null},
    ColumnRule{7, "event", Rule::integer_or_null},
    ColumnRule{8, "correlation_id", Rule::integer_or_null},
};
constexpr std::array kRange = {
    HOST_COLUMN_RULES,
    ColumnRule{4, "name_id", Rule::string_id},
    ColumnRule{5, "domain_id", Rule::string_id_or_null},
    ColumnRule{6, "category", Rule::integer_or_null},
    ColumnRule{7, "on_gpu", Rule::enum_value, 0, 1},
    ColumnRule{8, "device", Rule::device_or_null},
    ColumnRule{9, "stream", Rule::integer_or_null},
    ColumnRule{10, "correlation_id", Rule::integer_or_null},
};
// Since 1.2. A group of 0 would divide the bus bandwidth factor (n-1)/n by zero.
constexpr std::array kCollective = {
    ColumnRule{0, "device", Rule::device},
    ColumnRule{1, "correlation_id", Rule::integer},
    ColumnRule{2, "name_id", Rule::string_id},
    ColumnRule{3, "in_elements", Rule::count_or_null},
    ColumnRule{4, "out_elements", Rule::count_or_null},
    ColumnRule{5, "in_bytes", Rule::count_or_null},
    ColumnRule{6, "out_bytes", Rule::count_or_null},
    ColumnRule{7, "dtype_id", Rule::string_id_or_null},
    ColumnRule{8, "group_size", Rule::positive_or_null},
    ColumnRule{9, "process_group_id", Rule::string_id_or_null},
    ColumnRule{10, "group_desc_id", Rule::string_id_or_null},
    ColumnRule{11, "group_ranks_id", Rule::string_id_or_null},
};

// Since 1.3. Sizes are never negative: the operation says which way they count.
constexpr std::array kMemoryEvent = {
    ColumnRule{0, "device", Rule::device},
    ColumnRule{1, "context", Rule::integer_or_null},
    ColumnRule{2, "stream", Rule::integer_or_null},
    ColumnRule{3, "time_ns", Rule::time},
    ColumnRule{4, "correlation_id", Rule::integer_or_null},
    ColumnRule{5, "operation", Rule::enum_value, static_cast<std::int64_t>(MemoryOperation::alloc),
               static_cast<std::int64_t>(MemoryOperation::free)},
    ColumnRule{6, "memory_kind", Rule::enum_or_null, 0, kLastMemoryKind},
    ColumnRule{7, "address", Rule::integer_or_null},
    ColumnRule{8, "bytes", Rule::count},
    ColumnRule{9, "allocated_after", Rule::count_or_null},
};

// A stretch of a thread's state names its thread: without one it describes nothing.
constexpr std::array kThreadState = {
    ColumnRule{0, "process_id", Rule::integer_or_null},
    ColumnRule{1, "thread_id", Rule::integer},
    ColumnRule{2, "start_ns", Rule::time},
    ColumnRule{3, "end_ns", Rule::end_time},
    ColumnRule{4, "state", Rule::enum_value, static_cast<std::int64_t>(ThreadRunState::running),
               static_cast<std::int64_t>(ThreadRunState::not_running)},
    ColumnRule{5, "cpu", Rule::integer_or_null},
    ColumnRule{6, "os_state_id", Rule::string_id_or_null},
    ColumnRule{7, "block_reason_id", Rule::string_id_or_null},
};

// Derived tables (written by `report --save`), read back by the exporter.
constexpr std::array kStep = {
    ColumnRule{0, "rank", Rule::int32_or_null}, ColumnRule{1, "device", Rule::device},
    ColumnRule{2, "step", Rule::integer_or_null}, ColumnRule{3, "start_ns", Rule::time},
    ColumnRule{4, "end_ns", Rule::end_time},      ColumnRule{5, "busy_ns", Rule::count_or_null},
    ColumnRule{6, "warmup", Rule::enum_or_null, 0, 1},
};
constexpr std::array kGap = {
    ColumnRule{0, "rank", Rule::int32_or_null}, ColumnRule{1, "device", Rule::device},
    ColumnRule{2, "after_step", Rule::integer_or_null}, ColumnRule{3, "start_ns", Rule::time},
    ColumnRule{4, "end_ns", Rule::end_time},
};

#undef GPU_COLUMN_RULES
#undef HOST_COLUMN_RULES

}  // namespace

static_assert(RowValues::kNull == SQLITE_NULL && RowValues::kInteger == SQLITE_INTEGER);

void RowValues::fetch(sqlite3_stmt* statement) {
  count_ = std::min(sqlite3_column_count(statement), kMaxColumns);
  for (int column = 0; column < count_; ++column) {
    // One API call per column; the value's type and integer are then plain reads.
    sqlite3_value* value = sqlite3_column_value(statement, column);
    type_[column] = sqlite3_value_type(value);
    value_[column] = type_[column] == SQLITE_INTEGER ? sqlite3_value_int64(value) : 0;
  }
}

template <typename Values>
const ColumnRule* broken_rule(const Values& row, std::span<const ColumnRule> rules,
                              const std::vector<std::uint8_t>& strings_present) {
  for (const auto& rule : rules) {
    if (!keeps(row, rule, strings_present)) return &rule;
  }
  return nullptr;
}

template const ColumnRule* broken_rule(const RowValues&, std::span<const ColumnRule>,
                                       const std::vector<std::uint8_t>&);
template const ColumnRule* broken_rule(const ChunkRow&, std::span<const ColumnRule>,
                                       const std::vector<std::uint8_t>&);

const char* describe(Rule rule) {
  switch (rule) {
    case Rule::integer: return "NULL or not an integer";
    case Rule::integer_or_null: return "not an integer";
    case Rule::int32_or_null: return "not a 32-bit integer";
    case Rule::count: return "negative, NULL or not an integer";
    case Rule::count_or_null: return "negative or not an integer";
    case Rule::positive_or_null: return "less than 1 or not an integer";
    case Rule::device:
    case Rule::device_or_null: return "not a device number";
    case Rule::time: return "negative, NULL or not an integer";
    case Rule::end_time: return "before the start, NULL or not an integer";
    case Rule::string_id:
    case Rule::string_id_or_null: return "names no row of the strings table";
    case Rule::enum_value:
    case Rule::enum_or_null: return "not one of the codes the schema defines";
  }
  return "not valid";
}

std::span<const ColumnRule> kernel_rules(bool launch_details) {
  return launch_details ? std::span<const ColumnRule>(kKernelDetailed) : std::span<const ColumnRule>(kKernelBase);
}
std::span<const ColumnRule> memcpy_rules() { return kMemcpy; }
std::span<const ColumnRule> memset_rules() { return kMemset; }
std::span<const ColumnRule> api_call_rules() { return kApiCall; }
std::span<const ColumnRule> sync_rules() { return kSync; }
std::span<const ColumnRule> range_rules() { return kRange; }
std::span<const ColumnRule> collective_rules() { return kCollective; }
std::span<const ColumnRule> memory_event_rules() { return kMemoryEvent; }
std::span<const ColumnRule> thread_state_rules() { return kThreadState; }
std::span<const ColumnRule> step_rules() { return kStep; }
std::span<const ColumnRule> gap_rules() { return kGap; }

}  // namespace gpuprof::trace
