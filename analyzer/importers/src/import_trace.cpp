#include "gpuprof/importers/import_trace.hpp"

#include <filesystem>
#include <span>

#include "gpuprof/importers/gpu_clock_check.hpp"
#include "gpuprof/importers/kineto_importer.hpp"
#include "gpuprof/importers/nsys_importer.hpp"
#include "gpuprof/importers/nvprof_importer.hpp"
#include "gpuprof/progress/stage_counter.hpp"
#include "gpuprof/trace/file_publishing.hpp"
#include "gpuprof/trace/input_file.hpp"
#include "gpuprof/trace/output_guard.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/temporary_files.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/units/units.hpp"
#include "event_time_shift.hpp"

namespace gpuprof::importers {
namespace {

namespace fs = std::filesystem;

// Removes the staging file unless the import published it; a signal removes it too.
class StagingFile {
 public:
  explicit StagingFile(std::string path) : path_(std::move(path)), registration_(path_) {}
  ~StagingFile() {
    std::error_code ignored;
    if (!published_) fs::remove(path_, ignored);
  }
  StagingFile(const StagingFile&) = delete;
  StagingFile& operator=(const StagingFile&) = delete;

  const std::string& path() const { return path_; }

  void publish(const std::string& output, bool overwrite) {
    publish_file(path_, output, overwrite);
    published_ = true;
  }

 private:
  std::string path_;
  TemporaryName registration_;
  bool published_ = false;
};

void check_output(const std::string& output, bool overwrite) {
  refuse_non_regular_output(output);
  std::error_code error;
  const auto status = fs::status(output, error);
  refuse_folder_output(output);
  if (fs::exists(status) && !overwrite) {
    throw TraceError::bad_input(output, "already exists (use --force to overwrite)");
  }
}

// A forced --format still must not read one of our own traces as a foreign one.
bool is_gpuprof_trace(const std::string& input) {
  try {
    return detect_source_format(input) == SourceFormat::gpuprof;
  } catch (const TraceError&) {
    return false;  // not recognised: the forced format decides
  }
}

ImportResult import_kineto_counted(const std::string& input, ImportSink& sink, const progress::ProgressCallback& shown) {
  if (!shown) return import_kineto(input, sink);
  std::error_code error;
  const auto size = fs::file_size(input, error);
  progress::StageCounter reading(shown, "import", error ? 0 : static_cast<std::int64_t>(size), "bytes");
  reading.add(0);
  std::int64_t counted = 0;
  return import_kineto(input, sink, [&](std::int64_t read) {
    if (read > counted) reading.add(read - counted), counted = read;
  });
}

// The rows of a SQLite export's event tables (max(rowid): a B-tree descent each); 0, shown without a
// percentage, when they cannot be counted (the importer then says what is wrong with the file).
std::int64_t source_event_rows(const std::string& input, std::span<const char* const> tables) {
  try {
    sqlite::Database database(input, sqlite::OpenMode::read_only);
    std::int64_t rows = 0;
    for (const char* table : tables) {
      if (database.has_table(table)) {
        units::add_saturating(rows, database.query_int(std::string("SELECT max(rowid) FROM ") + table).value_or(0));
      }
    }
    return rows;
  } catch (const TraceError&) {
    return 0;
  }
}

// Nsight and nvprof exports count event rows imported of the rows their event tables hold (an nvprof marker
// range is two rows, a row with invalid times is left out: the line may end short of 100 %, never past it).
template <typename Import>
ImportResult import_sqlite_counted(const std::string& input, ImportSink& sink, const progress::ProgressCallback& shown,
                                   std::span<const char* const> tables, Import&& import) {
  if (!shown) return import(input, sink);
  progress::StageCounter reading(shown, "import", source_event_rows(input, tables), "rows");
  reading.add(0);
  sink.count_events_for(&reading);
  auto result = import(input, sink);
  sink.report_remaining_events();
  sink.count_events_for(nullptr);
  return result;
}

ImportResult run_importer(SourceFormat format, const ImportOptions& options, ImportSink& sink) {
  const auto& input = options.input;
  switch (format) {
    case SourceFormat::kineto: return import_kineto_counted(input, sink, options.progress);
    case SourceFormat::nsys:
      return import_sqlite_counted(input, sink, options.progress, nsys_event_tables(), import_nsys);
    case SourceFormat::nvprof:
      return import_sqlite_counted(input, sink, options.progress, nvprof_event_tables(), import_nvprof);
    case SourceFormat::gpuprof: break;
  }
  throw TraceError::bad_input(input, "is already a gpuprof trace; there is nothing to import");
}

// Applies a time base learned only after the rows were written (see ImportResult):
// Kineto writes baseTimeNanoseconds after traceEvents, so it cannot be added while converting.
void shift_times(const std::string& path, std::int64_t offset_ns) {
  sqlite::Database database(path, sqlite::OpenMode::read_write);
  database.execute("BEGIN");
  shift_event_times(database, offset_ns, ShiftedRows::every_event);
  database.execute("COMMIT");
}

}  // namespace

ImportSummary import_trace(const ImportOptions& options) {
  check_input_file(options.input);
  const SourceFormat format = options.format ? *options.format : detect_source_format(options.input);
  if (format == SourceFormat::gpuprof || (options.format && is_gpuprof_trace(options.input))) {
    throw TraceError::bad_input(options.input, "is already a gpuprof trace; there is nothing to import");
  }
  check_output(options.output, options.overwrite);
  refuse_writing_over_inputs({options.output}, {options.input});
  StagingFile staging(temporary_path_beside(options.output));
  ImportSummary summary;
  summary.input = options.input;
  summary.output = options.output;
  summary.format = format;
  ImportResult result;
  try {
    {
      trace::TraceWriter writer({.path = staging.path(),
                                 .durability = trace::Durability::atomic,
                                 .overwrite = true,
                                 .tool_version = options.tool_version,
                                 .background_writes = true});
      ImportSink sink(writer);
      result = run_importer(format, options, sink);
      writer.set_meta("source_file", fs::path(options.input).filename().string());
      sink.write_summary(result.time_offset_ns);
      writer.finish();
      summary.counts = sink.counts();
    }
    if (result.time_offset_ns != 0) shift_times(staging.path(), result.time_offset_ns);
    summary.clock = align_gpu_clock(staging.path());
    staging.publish(options.output, options.overwrite);
  } catch (const TraceError& error) {
    // The staging file is ours, not the user's: name the output they asked for.
    if (error.path() == options.input || error.path() == options.output) throw;
    throw TraceError(error.kind(), options.output, error.problem());
  }
  summary.rank = result.rank;
  summary.world_size = result.world_size;
  return summary;
}

std::string describe(const ImportSummary& summary) {
  const auto& c = summary.counts;
  std::string text = std::string(to_string(summary.format)) + ": kernels " + std::to_string(c.kernels) +
                     ", memcpys " + std::to_string(c.memcpys) + ", memsets " + std::to_string(c.memsets) +
                     ", api calls " + std::to_string(c.api_calls) + ", syncs " + std::to_string(c.syncs) +
                     ", ranges " + std::to_string(c.ranges) + ", devices " + std::to_string(c.devices);
  if (c.collectives > 0) text += ", collectives " + std::to_string(c.collectives);
  if (c.thread_states > 0) text += ", thread states " + std::to_string(c.thread_states);
  if (summary.rank) {
    text += ", rank " + std::to_string(*summary.rank);
    if (summary.world_size) text += " of " + std::to_string(*summary.world_size);
  }
  if (summary.clock.shift_ns != 0) {
    text += ", GPU clock shifted by " + std::to_string(summary.clock.shift_ns) + " ns onto the host clock";
  }
  text += c.warnings == 0 ? ", no problems"
                          : ", " + std::to_string(c.warnings) + " events with problems (see collector_stats)";
  return text;
}

}  // namespace gpuprof::importers
