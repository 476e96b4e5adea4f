#include "gpuprof/importers/nvprof_importer.hpp"

#include <unordered_map>

#include "cuda_enums.hpp"
#include "cupti_callback_names.hpp"
#include "cupti_table_rows.hpp"
#include "foreign_strings.hpp"
#include "nvprof_markers.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "sqlite_columns.hpp"

namespace gpuprof::importers {
namespace {

using trace::Severity;

// Rows without usable times are dropped and counted per table.

class NvprofReader {
 public:
  NvprofReader(const std::string& input, ImportSink& sink)
      : input_(input), database_(input, sqlite::OpenMode::read_only), sink_(sink),
        strings_(database_, sink, "StringTable", "_id_") {}

  ImportResult run() {
    sink_.set_meta("source_format", "nvprof");
    write_process_id();
    read_devices();
    for (const char* table : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL"}) {
      if (database_.has_table(table)) read_kernels(table);
    }
    if (database_.has_table("CUPTI_ACTIVITY_KIND_MEMCPY")) read_memcpys("CUPTI_ACTIVITY_KIND_MEMCPY", false);
    if (database_.has_table("CUPTI_ACTIVITY_KIND_MEMCPY2")) read_memcpys("CUPTI_ACTIVITY_KIND_MEMCPY2", true);
    if (database_.has_table("CUPTI_ACTIVITY_KIND_MEMSET")) read_memsets();
    if (database_.has_table("CUPTI_ACTIVITY_KIND_RUNTIME")) {
      read_api_calls("CUPTI_ACTIVITY_KIND_RUNTIME", trace::ApiKind::runtime);
    }
    if (database_.has_table("CUPTI_ACTIVITY_KIND_DRIVER")) {
      read_api_calls("CUPTI_ACTIVITY_KIND_DRIVER", trace::ApiKind::driver);
    }
    if (database_.has_table("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")) read_syncs();
    if (database_.has_table("CUPTI_ACTIVITY_KIND_MARKER")) import_nvprof_markers(database_, strings_, sink_);
    return {};
  }

 private:
  // nvprof writes one file per process; its pid tells rank files of one job
  // apart from the same process named twice (job::assign_ranks).
  void write_process_id() {
    std::string calls;
    for (const char* table : {"CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER"}) {
      if (!database_.has_table(table)) continue;
      calls += std::string(calls.empty() ? "" : " UNION ALL ") + "SELECT processId FROM " + table;
    }
    if (calls.empty()) return;
    sqlite::Statement query(database_, "SELECT count(DISTINCT processId), min(processId) FROM (" + calls + ")");
    if (query.step() && query.column_int(0) == 1) sink_.set_meta("pid", std::to_string(query.column_int(1)));
  }

  // CUPTI's name for the call, or "cbid:N" (counted) for an id the generated tables lack.
  trace::StringId api_name(trace::ApiKind kind, std::int64_t callback_id) {
    auto& cache = kind == trace::ApiKind::runtime ? runtime_names_ : driver_names_;
    auto found = cache.find(callback_id);
    if (found == cache.end()) {
      const auto name =
          kind == trace::ApiKind::runtime ? runtime_callback_name(callback_id) : driver_callback_name(callback_id);
      const auto id = sink_.intern(name.empty() ? "cbid:" + std::to_string(callback_id) : std::string(name));
      found = cache.emplace(callback_id, ApiName{id, !name.empty()}).first;
    }
    if (!found->second.known) {
      sink_.count(StatId::import_nvprof_unknown_callback_ids, Severity::warning, 1,
                  "API calls whose callback id is not in the CUPTI headers the importer was built with");
    }
    return found->second.id;
  }

  trace::StringId name_of(std::int64_t foreign_id) {
    if (auto found = strings_.find(foreign_id)) return *found;
    sink_.count(StatId::import_nvprof_missing_string, Severity::warning, 1,
                "rows naming a StringTable id that is absent");
    return sink_.intern("<unknown>");
  }

  void read_devices() {
    if (!database_.has_table("CUPTI_ACTIVITY_KIND_DEVICE")) return;
    sqlite::Statement query(database_,
                            "SELECT id, name, computeCapabilityMajor, computeCapabilityMinor, numMultiprocessors, "
                            "globalMemorySize, globalMemoryBandwidth FROM CUPTI_ACTIVITY_KIND_DEVICE ORDER BY id");
    while (query.step()) {
      sqlite3_stmt* row = query.raw();
      trace::DeviceRow device;
      device.id = static_cast<std::int32_t>(column_int(row, 0));
      if (const auto name = column_optional(row, 1)) device.name = strings_.text(*name);
      device.compute_major = column_optional32(row, 2);
      device.compute_minor = column_optional32(row, 3);
      device.sm_count = column_optional32(row, 4);
      device.memory_bytes = column_optional(row, 5);
      // CUpti_ActivityDevice gives the bandwidth in KB/s.
      if (const auto bandwidth = column_optional(row, 6)) device.memory_bandwidth_bps = *bandwidth * 1000;
      sink_.add(device);
    }
  }

  // nvprof stores the mangled name as CUPTI gives it; the sink demangles it.
  void read_kernels(const std::string& table) {
    sqlite::Statement query(database_, kernel_select("name", "NULL", table));
    const auto stat = StatId::import_nvprof_invalid_times_kernels;
    ForeignRow row;
    while (query.step()) {
      row.fetch(query.raw());
      if (!keep_valid_times(row, sink_, stat)) continue;
      trace::KernelRow kernel = kernel_from_row(row);
      const auto name = strings_.kernel_name(row.integer(6));
      kernel.name = name ? name->name : name_of(row.integer(6));
      if (name) kernel.mangled_name = name->mangled;
      sink_.add(kernel);
    }
  }

  // MEMCPY2 holds peer copies with their source and destination devices.
  void read_memcpys(const std::string& table, bool peer) {
    sqlite::Statement query(database_, memcpy_select(peer ? "srcDeviceId, dstDeviceId" : "NULL, NULL", table));
    const auto peer_devices = peer ? PeerDeviceColumns::every_row : PeerDeviceColumns::none;
    const auto stat = StatId::import_nvprof_invalid_times_memcpys;
    ForeignRow row;
    while (query.step()) {
      row.fetch(query.raw());
      if (!keep_valid_times(row, sink_, stat)) continue;
      sink_.add(memcpy_from_row(row, memory_kind_from_cupti, peer_devices));
    }
  }

  void read_memsets() {
    sqlite::Statement query(database_, memset_select("CUPTI_ACTIVITY_KIND_MEMSET"));
    const auto stat = StatId::import_nvprof_invalid_times_memsets;
    ForeignRow row;
    while (query.step()) {
      row.fetch(query.raw());
      if (keep_valid_times(row, sink_, stat)) sink_.add(memset_from_row(row));
    }
  }

  void read_api_calls(const std::string& table, trace::ApiKind kind) {
    sqlite::Statement query(database_,
                            "SELECT start, end, processId, threadId, correlationId, cbid, returnValue FROM " + table);
    trace::ApiCallRow call;
    call.kind = kind;
    const auto stat = StatId::import_nvprof_invalid_times_api_calls;
    ForeignRow row;
    while (query.step()) {
      row.fetch(query.raw());
      if (!keep_valid_times(row, sink_, stat)) continue;
      call.start_ns = row.integer(0);
      call.end_ns = row.integer(1);
      call.process_id = row.optional(2);
      call.thread_id = row.optional(3);
      call.correlation_id = row.optional(4);
      call.name = api_name(kind, row.integer(5));
      call.return_code = row.optional(6);
      sink_.add(call);
    }
  }

  void read_syncs() {
    sqlite::Statement query(database_,
                            "SELECT start, end, type, streamId, cudaEventId, correlationId "
                            "FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION");
    trace::SyncRow sync;
    const auto stat = StatId::import_nvprof_invalid_times_syncs;
    ForeignRow row;
    while (query.step()) {
      row.fetch(query.raw());
      if (!keep_valid_times(row, sink_, stat)) continue;
      sync.start_ns = row.integer(0);
      sync.end_ns = row.integer(1);
      sync.type = sync_type_from_cupti(row.integer(2));
      sync.stream = row.optional(3) ? unless_unset(row.integer(3)) : std::nullopt;
      sync.event = row.optional(4) ? unless_unset(row.integer(4)) : std::nullopt;
      sync.correlation_id = row.optional(5);
      sink_.add(sync);
    }
  }

  std::string input_;
  sqlite::Database database_;
  ImportSink& sink_;
  ForeignStrings strings_;
  struct ApiName {
    trace::StringId id;
    bool known;
  };
  std::unordered_map<std::int64_t, ApiName> runtime_names_, driver_names_;
};

}  // namespace

ImportResult import_nvprof(const std::string& input, ImportSink& sink) { return NvprofReader(input, sink).run(); }

std::span<const char* const> nvprof_event_tables() {
  // Kept beside the reader above: a table it starts reading belongs here too.
  static constexpr const char* kTables[] = {
    "CUPTI_ACTIVITY_KIND_KERNEL",
    "CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL",
    "CUPTI_ACTIVITY_KIND_MEMCPY",
    "CUPTI_ACTIVITY_KIND_MEMCPY2",
    "CUPTI_ACTIVITY_KIND_MEMSET",
    "CUPTI_ACTIVITY_KIND_RUNTIME",
    "CUPTI_ACTIVITY_KIND_DRIVER",
    "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
    "CUPTI_ACTIVITY_KIND_MARKER"};
  return kTables;
}

}  // namespace gpuprof::importers
