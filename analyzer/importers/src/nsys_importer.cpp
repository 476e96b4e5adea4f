#include "gpuprof/importers/nsys_importer.hpp"

#include <map>
#include <unordered_map>

#include "cuda_enums.hpp"
#include "cupti_table_rows.hpp"
#include "foreign_strings.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "nsys_global_id.hpp"
#include "nsys_memory.hpp"
#include "nsys_sched.hpp"
#include "sqlite_columns.hpp"

namespace gpuprof::importers {
namespace {

using trace::Severity;

// "cudaLaunchKernel_v7000" → "cudaLaunchKernel": nsys appends the API version,
// CUPTI names and Kineto do not, and analyses match on the plain name.
std::string without_version_suffix(std::string name) {
  const auto marker = name.rfind("_v");
  if (marker == std::string::npos || marker + 2 == name.size()) return name;
  for (std::size_t i = marker + 2; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return name;
  }
  name.resize(marker);
  return name;
}

class NsysReader {
 public:
  NsysReader(const std::string& input, ImportSink& sink)
      : input_(input), database_(input, sqlite::OpenMode::read_only), sink_(sink),
        strings_(database_, sink, "StringIds", "id") {}

  ImportResult run() {
    check_tables();
    write_meta();
    read_devices();
    if (database_.has_table("CUPTI_ACTIVITY_KIND_KERNEL")) read_kernels();
    if (database_.has_table("CUPTI_ACTIVITY_KIND_MEMCPY")) read_memcpys();
    if (database_.has_table("CUPTI_ACTIVITY_KIND_MEMSET")) read_memsets();
    if (database_.has_table("CUPTI_ACTIVITY_KIND_RUNTIME")) read_api_calls();
    if (database_.has_table("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")) read_syncs();
    if (database_.has_table("NVTX_EVENTS")) read_nvtx();
    if (database_.has_table(kNsysMemoryTable)) read_nsys_memory_events(database_, sink_);
    if (database_.has_table(kNsysSchedTable)) read_nsys_thread_states(database_, sink_);
    return {};
  }

 private:
  void check_tables() {
    if (!database_.has_table("StringIds")) {
      throw TraceError::bad_input(input_, "is not an Nsight Systems SQLite export (no StringIds table)");
    }
  }

  void write_meta() {
    sink_.set_meta("source_format", "nsys");
    for (const char* table : {"META_DATA_EXPORT", "EXPORT_META_DATA"}) {
      if (!database_.has_table(table)) continue;
      sqlite::Statement query(database_, std::string("SELECT value FROM ") + table +
                                             " WHERE name = 'EXPORT_SCHEMA_VERSION'");
      if (query.step()) sink_.set_meta("source_version", "nsys export schema " + std::string(query.column_text(0)));
      sqlite::Statement product(database_, std::string("SELECT value FROM ") + table +
                                               " WHERE name = 'EXPORT_PRODUCT_VERSION'");
      if (product.step()) {
        sink_.set_meta("source_tool_version", "Nsight Systems " + std::string(product.column_text(0)));
      }
    }
    if (database_.has_table("TARGET_INFO_SESSION_START_TIME")) {
      const auto utc = database_.query_int("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
      if (utc) sink_.set_meta("session_start_utc_ns", std::to_string(*utc));
    }
  }

  // CUDA devices only: exports on Windows list every display adapter.
  void read_devices() {
    if (!database_.has_table("TARGET_INFO_GPU")) return;
    const bool has_cuda_table = database_.has_table("TARGET_INFO_CUDA_DEVICE");
    const std::string is_cuda = has_cuda_table ? "id IN (SELECT gpuId FROM TARGET_INFO_CUDA_DEVICE)"
                                               : "computeMajor > 0 AND smCount > 0";
    sqlite::Statement query(database_,
                            "SELECT id, name, uuid, busLocation, computeMajor, computeMinor, smCount, totalMemory, "
                            "memoryBandwidth, " + is_cuda + " FROM TARGET_INFO_GPU GROUP BY id ORDER BY id");
    std::string ignored;
    while (query.step()) {
      sqlite3_stmt* row = query.raw();
      if (column_int(row, 9) == 0) {
        ignored += (ignored.empty() ? "" : ", ") + column_optional_text(row, 1).value_or("unnamed");
        sink_.count(StatId::import_nsys_non_cuda_adapters, Severity::info, 1);
        continue;
      }
      trace::DeviceRow device;
      device.id = static_cast<std::int32_t>(column_int(row, 0));
      device.name = column_optional_text(row, 1);
      device.uuid = column_optional_text(row, 2);
      device.pci_bus_id = column_optional_text(row, 3);
      device.compute_major = column_optional32(row, 4);
      device.compute_minor = column_optional32(row, 5);
      device.sm_count = column_optional32(row, 6);
      device.memory_bytes = column_optional(row, 7);
      device.memory_bandwidth_bps = column_optional(row, 8);
      sink_.add(device);
    }
    if (!ignored.empty()) sink_.count(StatId::import_nsys_non_cuda_adapters, Severity::info, 0, ignored);
  }

  trace::StringId name_or_placeholder(std::int64_t foreign_id) {
    if (auto found = strings_.find(foreign_id)) return *found;
    sink_.count(StatId::import_nsys_missing_string, Severity::warning, 1, "rows naming a StringIds id that is absent");
    return sink_.intern("<unknown>");
  }

  // nsys's own demangledName is preferred; mangledName (absent in some exports) is kept beside it.
  void read_kernels() {
    const std::string table = "CUPTI_ACTIVITY_KIND_KERNEL";
    const std::string graph = has_column(database_, table, "graphNodeId") ? "graphNodeId" : "NULL";
    const std::string mangled = has_column(database_, table, "mangledName") ? "mangledName" : "NULL";
    sqlite::Statement query(database_, kernel_select("demangledName", graph, table, mangled));
    ForeignRow row;
    while (query.step()) {
      row.fetch(query.raw());
      if (!keep_valid_times(row, sink_, StatId::import_nsys_invalid_times_kernels)) continue;
      trace::KernelRow kernel = kernel_from_row(row);
      const auto demangled_id = row.integer(6);
      const auto mangled_id = row.optional(17);
      auto name = mangled_id ? strings_.kernel_name(*mangled_id, demangled_id) : std::nullopt;
      if (!name) name = strings_.kernel_name(demangled_id);
      kernel.name = name ? name->name : name_or_placeholder(demangled_id);
      if (name) kernel.mangled_name = name->mangled;
      sink_.add(kernel);
    }
  }

  void read_memcpys() {
    sqlite::Statement query(database_, memcpy_select("srcDeviceId, dstDeviceId", "CUPTI_ACTIVITY_KIND_MEMCPY"));
    ForeignRow row;
    while (query.step()) {
      row.fetch(query.raw());
      if (!keep_valid_times(row, sink_, StatId::import_nsys_invalid_times_memcpys)) continue;
      sink_.add(memcpy_from_row(row, memory_kind_from_nsys, PeerDeviceColumns::peer_copies));
    }
  }

  void read_memsets() {
    sqlite::Statement query(database_, memset_select("CUPTI_ACTIVITY_KIND_MEMSET"));
    ForeignRow row;
    while (query.step()) {
      row.fetch(query.raw());
      if (!keep_valid_times(row, sink_, StatId::import_nsys_invalid_times_memsets)) continue;
      sink_.add(memset_from_row(row));
    }
  }

  trace::StringId api_name(std::int64_t foreign_id) {
    if (const auto found = api_names_.find(foreign_id); found != api_names_.end()) return found->second;
    const auto text = strings_.text(foreign_id);
    if (!text) return name_or_placeholder(foreign_id);
    const auto id = sink_.intern(without_version_suffix(*text));
    api_names_.emplace(foreign_id, id);
    return id;
  }

  void read_api_calls() {
    // eventClass 0 is the CUDA runtime, 1 the driver (ENUM_NSYS_EVENT_CLASS).
    sqlite::Statement query(database_,
                            "SELECT start, end, eventClass, globalTid, correlationId, nameId, returnValue "
                            "FROM CUPTI_ACTIVITY_KIND_RUNTIME");
    trace::ApiCallRow call;
    ForeignRow row;
    while (query.step()) {
      row.fetch(query.raw());
      if (!keep_valid_times(row, sink_, StatId::import_nsys_invalid_times_api_calls)) continue;
      const std::int64_t event_class = row.integer(2);
      if (event_class != 0 && event_class != 1) {
        sink_.count({StatId::import_nsys_skipped_event_class, std::to_string(event_class)}, Severity::info);
        continue;
      }
      call.start_ns = row.integer(0);
      call.end_ns = row.integer(1);
      call.kind = event_class == 0 ? trace::ApiKind::runtime : trace::ApiKind::driver;
      const auto global_thread = row.optional(3);
      call.process_id = global_thread ? std::optional(nsys_process_of(*global_thread)) : std::nullopt;
      call.thread_id = global_thread ? std::optional(nsys_thread_of(*global_thread)) : std::nullopt;
      call.correlation_id = row.optional(4);
      call.name = api_name(row.integer(5));
      call.return_code = row.optional(6);
      sink_.add(call);
    }
  }

  void read_syncs() {
    sqlite::Statement query(database_,
                            "SELECT start, end, deviceId, streamId, correlationId, globalPid, syncType, eventId "
                            "FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION");
    trace::SyncRow sync;
    ForeignRow row;
    while (query.step()) {
      row.fetch(query.raw());
      if (!keep_valid_times(row, sink_, StatId::import_nsys_invalid_times_syncs)) continue;
      sync.start_ns = row.integer(0);
      sync.end_ns = row.integer(1);
      sync.device = row.optional32(2);
      sync.stream = row.optional(3) ? unless_unset(row.integer(3)) : std::nullopt;
      sync.correlation_id = row.optional(4);
      const auto global_process = row.optional(5);
      sync.process_id = global_process ? std::optional(nsys_process_of(*global_process)) : std::nullopt;
      sync.type = sync_type_from_cupti(row.integer(6));
      sync.event = row.optional(7) ? unless_unset(row.integer(7)) : std::nullopt;
      sink_.add(sync);
    }
  }

  // NVTX push/pop (59) and start/end (60) ranges; marks and domain records are not ranges.
  void read_nvtx() {
    std::map<std::int64_t, trace::StringId> domains;
    sqlite::Statement domain_query(database_,
                                   "SELECT domainId, text FROM NVTX_EVENTS WHERE eventType = 75 AND text IS NOT NULL");
    while (domain_query.step()) {
      domains[domain_query.column_int(0)] = sink_.intern(domain_query.column_text(1));
    }
    sqlite::Statement query(database_,
                            "SELECT start, end, globalTid, text, textId, domainId, category, eventType "
                            "FROM NVTX_EVENTS WHERE eventType IN (59, 60)");
    trace::RangeRow range;
    while (query.step()) {
      sqlite3_stmt* row = query.raw();
      if (sqlite3_column_type(row, 1) == SQLITE_NULL) {
        sink_.count(StatId::import_nsys_unclosed_nvtx_ranges, Severity::warning, 1, "NVTX ranges without an end");
        continue;
      }
      range.start_ns = column_int(row, 0);
      range.end_ns = column_int(row, 1);
      const auto global_thread = column_optional(row, 2);
      range.process_id = global_thread ? std::optional(nsys_process_of(*global_thread)) : std::nullopt;
      range.thread_id = global_thread ? std::optional(nsys_thread_of(*global_thread)) : std::nullopt;
      if (const auto text = column_optional_text(row, 3)) {
        range.name = sink_.intern(*text);
      } else if (const auto text_id = column_optional(row, 4)) {
        range.name = name_or_placeholder(*text_id);
      } else {
        range.name = sink_.intern("<unnamed>");
      }
      const auto domain = column_optional(row, 5);
      range.domain.reset();
      if (domain) {
        if (const auto found = domains.find(*domain); found != domains.end()) range.domain = found->second;
      }
      range.category = column_optional(row, 6);
      sink_.add(range);
    }
  }

  std::string input_;
  sqlite::Database database_;
  ImportSink& sink_;
  ForeignStrings strings_;
  std::unordered_map<std::int64_t, trace::StringId> api_names_;
};

}  // namespace

ImportResult import_nsys(const std::string& input, ImportSink& sink) { return NsysReader(input, sink).run(); }

std::span<const char* const> nsys_event_tables() {
  // Kept beside the reader above: a table it starts reading belongs here too.
  static constexpr const char* kTables[] = {
    "CUPTI_ACTIVITY_KIND_KERNEL",
    "CUPTI_ACTIVITY_KIND_MEMCPY",
    "CUPTI_ACTIVITY_KIND_MEMSET",
    "CUPTI_ACTIVITY_KIND_RUNTIME",
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
    "NVTX_EVENTS",
    "CUDA_GPU_MEMORY_USAGE_EVENTS",
    "SCHED_EVENTS"};
  return kTables;
}

}  // namespace gpuprof::importers
