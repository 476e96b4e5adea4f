#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "gpuprof/trace/records.hpp"
#include "gpuprof/trace/stats_catalogue.hpp"
#include "gpuprof/progress/stage_counter.hpp"
#include "gpuprof/trace/trace_writer.hpp"

namespace gpuprof::importers {

// Every importer names its stats from the catalogue.
using trace::StatId;

// Rows written per table and the problems met, for the one-line summary.
struct ImportCounts {
  std::int64_t devices = 0, kernels = 0, memcpys = 0, memsets = 0, api_calls = 0, syncs = 0, ranges = 0;
  std::int64_t collectives = 0, memory_events = 0, thread_states = 0;
  std::int64_t warnings = 0;  // events counted into warning stats (unknown or malformed)
};

// Everything an importer writes goes through here: it counts rows, tracks the
// time span, and turns problems into collector_stats rows (data loss is data).
class ImportSink {
 public:
  explicit ImportSink(trace::TraceWriter& writer) : writer_(&writer) {}
  // Counts and checks like a writing sink but stores nothing: every string is
  // id 0. The import benchmark times the importers' reading side with it.
  ImportSink() = default;

  trace::StringId intern(std::string_view text) { return writer_ != nullptr ? writer_->intern(text) : 0; }
  trace::KernelName intern_kernel_name(std::string_view reported, std::string_view demangled = {}) {
    return writer_ != nullptr ? writer_->intern_kernel_name(reported, demangled) : trace::KernelName{};
  }
  void set_meta(std::string_view key, std::string_view value) {
    if (writer_ != nullptr) writer_->set_meta(key, value);
  }

  void add(const trace::DeviceRow& row);
  void add(const trace::KernelRow& row);
  void add(const trace::MemcpyRow& row);
  void add(const trace::MemsetRow& row);
  void add(const trace::ApiCallRow& row);
  void add(const trace::SyncRow& row);
  void add(const trace::RangeRow& row);
  void add(const trace::CollectiveRow& row);
  void add(const trace::MemoryEventRow& row);
  // Not part of the trace's time span: the scheduler is recorded before and after the GPU work.
  void add(const trace::ThreadStateRow& row);

  // Adds `count` to the stat `name` (a catalogue id, with its key for a keyed
  // stat); the first non-empty detail given is kept.
  void count(const trace::StatName& name, trace::Severity severity, std::int64_t count = 1,
             std::string_view detail = {});

  // Writes the accumulated stats, per-table row counts and start_ns/end_ns
  // (shifted by `time_offset_ns`, see ImportResult) into the trace.
  void write_summary(std::int64_t time_offset_ns);

  // From now on every event row added counts for `counter` (an import's
  // progress), handed over in batches; nullptr stops counting.
  void count_events_for(progress::StageCounter* counter) { progress_ = counter; }
  // Hands over the rows of the last batch.
  void report_remaining_events();

  const ImportCounts& counts() const { return counts_; }
  std::optional<std::int64_t> first_ns() const { return first_ns_; }
  std::optional<std::int64_t> last_ns() const { return last_ns_; }

 private:
  struct Stat {
    std::int64_t value = 0;
    trace::Severity severity = trace::Severity::info;
    std::string detail;
  };
  void span(std::int64_t start_ns, std::int64_t end_ns);
  void progressed();

  trace::TraceWriter* writer_ = nullptr;
  progress::StageCounter* progress_ = nullptr;
  std::int64_t unreported_events_ = 0;
  ImportCounts counts_;
  std::map<std::string, Stat> stats_;
  std::optional<std::int64_t> first_ns_, last_ns_;
};

// What an importer found out besides rows.
struct ImportResult {
  // Added to every timestamp after writing: Kineto may name its time base only
  // after the events (baseTimeNanoseconds follows traceEvents).
  std::int64_t time_offset_ns = 0;
  std::optional<std::int32_t> rank, world_size;
};

}  // namespace gpuprof::importers
