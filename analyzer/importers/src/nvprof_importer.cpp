#include "gpuprof/importers/nvprof_importer.hpp"

#include <unordered_map>

#include "cuda_enums.hpp"
#include "cupti_table_rows.hpp"
#include "foreign_strings.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "sqlite_columns.hpp"

namespace gpuprof::importers {
namespace {

using trace::Severity;

// Runtime callback ids (cupti_runtime_cbid.h) of the calls analyses look for;
// nvprof stores no function names, so the others become "cbid:N".
std::string runtime_name(std::int64_t callback_id) {
  static const std::unordered_map<std::int64_t, const char*> names = {
      {41, "cudaMemcpyAsync"},       {49, "cudaMemset"},           {51, "cudaMemsetAsync"},
      {126, "cudaThreadSynchronize"}, {131, "cudaStreamSynchronize"}, {137, "cudaEventSynchronize"},
      {147, "cudaStreamWaitEvent"},  {160, "cudaMemcpyPeer"},      {161, "cudaMemcpyPeerAsync"},
      {165, "cudaDeviceSynchronize"}, {211, "cudaLaunchKernel"}};
  const auto found = names.find(callback_id);
  return found != names.end() ? found->second : "cbid:" + std::to_string(callback_id);
}

class NvprofReader {
 public:
  NvprofReader(const std::string& input, ImportSink& sink)
      : input_(input), database_(input, sqlite::OpenMode::read_only), sink_(sink),
        strings_(database_, sink, "StringTable", "_id_") {}

  ImportResult run() {
    sink_.set_meta("source_format", "nvprof");
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
    if (database_.has_table("CUPTI_ACTIVITY_KIND_MARKER")) {
      const auto markers = database_.query_int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MARKER").value_or(0);
      if (markers > 0) {
        sink_.count("import.nvprof.nvtx_markers_not_imported", Severity::warning, markers,
                    "NVTX marker records (CUPTI_ACTIVITY_KIND_MARKER) are not imported yet");
      }
    }
    return {};
  }

 private:
  trace::StringId name_of(std::int64_t foreign_id) {
    if (auto found = strings_.find(foreign_id)) return *found;
    sink_.count("import.nvprof.missing_string", Severity::warning, 1, "rows naming a StringTable id that is absent");
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

  // nvprof stores the mangled name as CUPTI gives it.
  void read_kernels(const std::string& table) {
    sqlite::Statement query(database_, kernel_select("name", "NULL", table));
    while (query.step()) {
      trace::KernelRow kernel = kernel_from_row(query.raw());
      const auto name = strings_.kernel_name(column_int(query.raw(), 6));
      kernel.name = name ? name->name : name_of(column_int(query.raw(), 6));
      if (name) kernel.mangled_name = name->mangled;
      sink_.add(kernel);
    }
  }

  // MEMCPY2 holds peer copies with their source and destination devices.
  void read_memcpys(const std::string& table, bool peer) {
    sqlite::Statement query(database_, memcpy_select(peer ? "srcDeviceId, dstDeviceId" : "NULL, NULL", table));
    const auto peer_devices = peer ? PeerDeviceColumns::every_row : PeerDeviceColumns::none;
    while (query.step()) sink_.add(memcpy_from_row(query.raw(), memory_kind_from_cupti, peer_devices));
  }

  void read_memsets() {
    sqlite::Statement query(database_, memset_select("CUPTI_ACTIVITY_KIND_MEMSET"));
    while (query.step()) sink_.add(memset_from_row(query.raw()));
  }

  void read_api_calls(const std::string& table, trace::ApiKind kind) {
    sqlite::Statement query(database_,
                            "SELECT start, end, processId, threadId, correlationId, cbid, returnValue FROM " + table);
    trace::ApiCallRow call;
    call.kind = kind;
    while (query.step()) {
      sqlite3_stmt* row = query.raw();
      call.start_ns = column_int(row, 0);
      call.end_ns = column_int(row, 1);
      call.process_id = column_optional(row, 2);
      call.thread_id = column_optional(row, 3);
      call.correlation_id = column_optional(row, 4);
      const std::int64_t callback_id = column_int(row, 5);
      call.name = sink_.intern(kind == trace::ApiKind::runtime ? runtime_name(callback_id)
                                                               : "cbid:" + std::to_string(callback_id));
      call.return_code = column_optional(row, 6);
      sink_.add(call);
    }
  }

  void read_syncs() {
    sqlite::Statement query(database_,
                            "SELECT start, end, type, streamId, cudaEventId, correlationId "
                            "FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION");
    trace::SyncRow sync;
    while (query.step()) {
      sqlite3_stmt* row = query.raw();
      sync.start_ns = column_int(row, 0);
      sync.end_ns = column_int(row, 1);
      sync.type = sync_type_from_cupti(column_int(row, 2));
      sync.stream = column_optional(row, 3) ? unless_unset(column_int(row, 3)) : std::nullopt;
      sync.event = column_optional(row, 4) ? unless_unset(column_int(row, 4)) : std::nullopt;
      sync.correlation_id = column_optional(row, 5);
      sink_.add(sync);
    }
  }

  std::string input_;
  sqlite::Database database_;
  ImportSink& sink_;
  ForeignStrings strings_;
};

}  // namespace

ImportResult import_nvprof(const std::string& input, ImportSink& sink) { return NvprofReader(input, sink).run(); }

}  // namespace gpuprof::importers
