#include "gpuprof/trace/trace_writer.hpp"

#include <unistd.h>

#include <array>
#include <ctime>
#include <filesystem>
#include <string>
#include <unordered_map>

#include "gpuprof/trace/chunk_guards.hpp"
#include "gpuprof/trace/file_publishing.hpp"
#include "gpuprof/trace/schema_version.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/symbol_names.hpp"
#include "gpuprof/trace/temporary_files.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "batched_insert.hpp"
#include "event_chunks.hpp"
#include "table_chunk_stream.hpp"

namespace gpuprof::trace {
namespace {

namespace fs = std::filesystem;

struct TransparentHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

void check_output_path(const std::string& path, bool overwrite) {
  std::error_code error;
  const auto status = fs::status(path, error);
  if (fs::is_directory(status)) throw TraceError::bad_input(path, "is a directory");
  if (fs::exists(status) && !overwrite) {
    throw TraceError::bad_input(path, "already exists (use --force to overwrite)");
  }
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::is_directory(parent, error)) {
    throw TraceError::bad_input(path, "folder " + parent.string() + " does not exist");
  }
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text.data();
}

}  // namespace

struct TraceWriter::Impl {
  WriterOptions options;
  std::string working_path;  // where SQLite writes; differs from options.path in atomic mode
  TemporaryName registration;  // so that SIGINT/SIGTERM remove the unfinished file
  sqlite::Database database;
  // Statements must be finalized before the connection closes, or SQLite keeps
  // it open (and the file locked) until they are.
  struct Statements {
    explicit Statements(sqlite::Database& database);
    // Commits must see every row added before them.
    void flush_batches() {
      kernels.flush(), memcpys.flush(), memsets.flush(), api_calls.flush(), syncs.flush(), ranges.flush(),
          collectives.flush();
    }
    void finish_chunks() {
      for (auto* stream : {&kernel_chunks, &memcpy_chunks, &memset_chunks, &api_call_chunks, &sync_chunks,
                           &range_chunks}) {
        stream->finish(insert_chunk);
      }
    }
    sqlite::Statement insert_string, insert_meta, insert_device, insert_device_link, delete_stat, insert_stat,
        insert_chunk;
    BatchedInsert<KernelRow> kernels;
    BatchedInsert<MemcpyRow> memcpys;
    BatchedInsert<MemsetRow> memsets;
    BatchedInsert<ApiCallRow> api_calls;
    BatchedInsert<SyncRow> syncs;
    BatchedInsert<RangeRow> ranges;
    BatchedInsert<CollectiveRow> collectives;
    // The chunked tables of event_chunks.hpp's chunked_tables().
    TableChunkStream kernel_chunks, memcpy_chunks, memset_chunks, api_call_chunks, sync_chunks, range_chunks;
  };
  std::unique_ptr<Statements> statements;
  std::unordered_map<std::string, StringId, TransparentHash, std::equal_to<>> strings;
  // Demangling costs microseconds and a kernel name repeats for every launch.
  std::unordered_map<std::string, KernelName, TransparentHash, std::equal_to<>> kernel_names;
  std::uint64_t rows = 0;
  std::uint64_t rows_in_transaction = 0;
  bool in_transaction = false;
  bool finished = false;

  Impl(WriterOptions writer_options, std::string path)
      : options(std::move(writer_options)),
        working_path(std::move(path)),
        registration(working_path != options.path ? working_path : std::string()),
        database(open_fresh(working_path, options)),
        statements(std::make_unique<Statements>(database)) {}

  void close() {
    statements.reset();
    database.close();
  }

  static sqlite::Database open_fresh(const std::string& path, const WriterOptions& options) {
    std::error_code ignored;
    fs::remove(path, ignored);
    sqlite::Database database(path, sqlite::OpenMode::create);
    if (options.durability == Durability::atomic) {
      // No journal: an unfinished temporary file is deleted, never read.
      database.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;");
    } else {
      // A rollback journal keeps the file valid if the process is killed mid-commit;
      // no fsync, since surviving an OS crash is not worth slowing the host program.
      database.execute("PRAGMA journal_mode = DELETE; PRAGMA synchronous = OFF;");
    }
    // Larger pages mean fewer B-tree splits per row when appending millions of rows.
    database.execute("PRAGMA page_size = 16384; PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -65536;");
    database.execute("BEGIN");
    database.execute(schema_sql());
    database.execute("PRAGMA user_version = " + std::to_string(kUserVersion));
    database.execute("COMMIT");
    return database;
  }

  void write_identity() {
    set_meta("format", kFormatName);
    set_meta("schema_version", std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor));
    if (!options.tool_version.empty()) set_meta("tool_version", options.tool_version);
    set_meta("created_utc", utc_now_iso8601());
  }

  void set_meta(std::string_view key, std::string_view value) {
    begin_if_needed();
    statements->insert_meta.bind(1, key);
    statements->insert_meta.bind(2, value);
    statements->insert_meta.run();
  }

  void begin_if_needed() {
    if (in_transaction) return;
    database.execute("BEGIN");
    in_transaction = true;
  }

  void commit() {
    if (!in_transaction) return;
    statements->flush_batches();
    database.execute("COMMIT");
    in_transaction = false;
    rows_in_transaction = 0;
  }

  void count_row() {
    ++rows;
    if (++rows_in_transaction >= options.rows_per_transaction) commit();
  }

  template <typename Row>
  void add_single(sqlite::Statement& statement, const Row& row) {
    begin_if_needed();
    bind_row(statement, 1, row);
    statement.run();
    count_row();
  }

  template <typename Row>
  void add_batched(BatchedInsert<Row>& table, const Row& row) {
    begin_if_needed();
    table.add(row);
    count_row();
  }

  // The chunk goes in before count_row() may commit, so that every commit holds
  // the chunks of the rows it holds.
  template <typename Row>
  void add_event(BatchedInsert<Row>& table, TableChunkStream& chunks, const Row& row) {
    begin_if_needed();
    table.add(row);
    chunks.add(row, statements->insert_chunk);
    count_row();
  }

  StringId intern(std::string_view text) {
    if (auto found = strings.find(text); found != strings.end()) return found->second;
    const auto id = static_cast<StringId>(strings.size());
    begin_if_needed();
    statements->insert_string.bind(1, std::int64_t{id});
    statements->insert_string.bind(2, text);
    statements->insert_string.run();
    strings.emplace(std::string(text), id);
    return id;
  }

  KernelName intern_kernel_name(std::string_view reported, std::string_view demangled) {
    const bool cacheable = demangled.empty();
    if (cacheable) {
      if (auto found = kernel_names.find(reported); found != kernel_names.end()) return found->second;
    }
    const bool source_demangled = !demangled.empty() && !is_mangled_symbol(demangled);
    const std::string readable = source_demangled ? std::string(demangled) : demangle_symbol(reported);
    KernelName result{intern(readable), std::nullopt};
    if (is_mangled_symbol(reported) && readable != reported) result.mangled = intern(reported);
    if (cacheable) kernel_names.emplace(std::string(reported), result);
    return result;
  }

  void publish() {
    if (working_path != options.path) publish_file(working_path, options.path, options.overwrite);
  }

  void abandon() noexcept {
    try {
      if (options.durability == Durability::crash_safe) {
        commit();
      } else {
        close();
        std::error_code ignored;
        fs::remove(working_path, ignored);
      }
    } catch (...) {
      // Destructors must not throw; the file is either removed or valid up to its last commit.
    }
  }
};

TraceWriter::Impl::Statements::Statements(sqlite::Database& database)
    : insert_string(database, "INSERT INTO strings(id, value) VALUES (?, ?)"),
      insert_meta(database, "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)"),
      insert_device(database, "INSERT OR REPLACE INTO devices VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
      insert_device_link(database, "INSERT OR REPLACE INTO device_links VALUES (?, ?, ?, ?, ?)"),
      delete_stat(database, "DELETE FROM collector_stats WHERE name = ?"),
      insert_stat(database, "INSERT INTO collector_stats VALUES (?, ?, ?, ?)"),
      insert_chunk(database, kInsertChunkSql),
      kernels(database),
      memcpys(database),
      memsets(database),
      api_calls(database),
      syncs(database),
      ranges(database),
      collectives(database),
      kernel_chunks(TableOf<KernelRow>::name, TableOf<KernelRow>::columns),
      memcpy_chunks(TableOf<MemcpyRow>::name, TableOf<MemcpyRow>::columns),
      memset_chunks(TableOf<MemsetRow>::name, TableOf<MemsetRow>::columns),
      api_call_chunks(TableOf<ApiCallRow>::name, TableOf<ApiCallRow>::columns),
      sync_chunks(TableOf<SyncRow>::name, TableOf<SyncRow>::columns),
      range_chunks(TableOf<RangeRow>::name, TableOf<RangeRow>::columns) {}

TraceWriter::TraceWriter(WriterOptions options) {
  check_output_path(options.path, options.overwrite);
  const std::string final_path = options.path;
  const std::string working = options.durability == Durability::atomic
                                  ? temporary_path_beside(final_path)
                                  : final_path;
  try {
    impl_ = std::make_unique<Impl>(std::move(options), working);
  } catch (const TraceError& error) {
    std::error_code ignored;
    if (working != final_path) fs::remove(working, ignored);
    // An output that cannot be created is an unusable path (exit 2), as in every command.
    throw TraceError::bad_input(final_path, "cannot create trace file: " + error.problem());
  }
  impl_->write_identity();
}

TraceWriter::~TraceWriter() {
  if (impl_ && !impl_->finished) impl_->abandon();
}

void TraceWriter::set_meta(std::string_view key, std::string_view value) { impl_->set_meta(key, value); }
StringId TraceWriter::intern(std::string_view text) { return impl_->intern(text); }
KernelName TraceWriter::intern_kernel_name(std::string_view reported, std::string_view demangled) {
  return impl_->intern_kernel_name(reported, demangled);
}

void TraceWriter::add(const DeviceRow& row) { impl_->add_single(impl_->statements->insert_device, row); }
void TraceWriter::add(const DeviceLinkRow& row) { impl_->add_single(impl_->statements->insert_device_link, row); }
void TraceWriter::add(const KernelRow& row) {
  impl_->add_event(impl_->statements->kernels, impl_->statements->kernel_chunks, row);
}
void TraceWriter::add(const MemcpyRow& row) {
  impl_->add_event(impl_->statements->memcpys, impl_->statements->memcpy_chunks, row);
}
void TraceWriter::add(const MemsetRow& row) {
  impl_->add_event(impl_->statements->memsets, impl_->statements->memset_chunks, row);
}
void TraceWriter::add(const ApiCallRow& row) {
  impl_->add_event(impl_->statements->api_calls, impl_->statements->api_call_chunks, row);
}
void TraceWriter::add(const SyncRow& row) {
  impl_->add_event(impl_->statements->syncs, impl_->statements->sync_chunks, row);
}
void TraceWriter::add(const RangeRow& row) {
  impl_->add_event(impl_->statements->ranges, impl_->statements->range_chunks, row);
}
void TraceWriter::add(const CollectiveRow& row) { impl_->add_batched(impl_->statements->collectives, row); }

void TraceWriter::set_stat(const StatRow& row) {
  impl_->begin_if_needed();
  impl_->statements->delete_stat.bind(1, std::string_view(row.name));
  impl_->statements->delete_stat.run();
  auto& s = impl_->statements->insert_stat;
  s.bind(1, std::string_view(row.name));
  s.bind(2, row.value);
  s.bind(3, to_string(row.severity));
  s.bind(4, row.detail);
  s.run();
}

void TraceWriter::flush() { impl_->commit(); }

void TraceWriter::finish() {
  impl_->set_meta("finished_utc", utc_now_iso8601());
  impl_->statements->finish_chunks();
  impl_->commit();
  impl_->database.execute("BEGIN");
  // The guards mark the chunks complete: readers use chunks only in files that have them.
  install_chunk_guards(impl_->database);
  impl_->database.execute(index_sql());
  impl_->database.execute("COMMIT");
  impl_->close();
  impl_->finished = true;
  try {
    impl_->publish();
  } catch (...) {
    std::error_code ignored;
    if (impl_->working_path != impl_->options.path) fs::remove(impl_->working_path, ignored);
    throw;
  }
}

std::uint64_t TraceWriter::rows_written() const { return impl_->rows; }
const std::string& TraceWriter::path() const { return impl_->options.path; }

}  // namespace gpuprof::trace
