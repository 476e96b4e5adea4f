#include "trace_store.hpp"

#include <filesystem>

#include "gpuprof/trace/chunk_guards.hpp"
#include "gpuprof/trace/schema_version.hpp"
#include "batched_insert.hpp"
#include "table_chunk_stream.hpp"

namespace gpuprof::trace {
namespace {

sqlite::Database open_fresh(const std::string& path, const WriterOptions& options) {
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
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

}  // namespace

struct TraceStore::Statements {
  explicit Statements(sqlite::Database& database)
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
        memory_events(database),
        thread_states(database) {}

  // Commits must see every row added before them.
  void flush_batches() {
    kernels.rows.flush(), memcpys.rows.flush(), memsets.rows.flush(), api_calls.rows.flush(), syncs.rows.flush(),
        ranges.rows.flush(), collectives.flush(),
        memory_events.flush(), thread_states.flush();
  }
  void finish_chunks() {
    kernels.finish(insert_chunk), memcpys.finish(insert_chunk), memsets.finish(insert_chunk),
        api_calls.finish(insert_chunk), syncs.finish(insert_chunk), ranges.finish(insert_chunk);
  }

  // An event table: its rows, and its column chunks encoded as the rows arrive.
  template <typename Row>
  struct EventTable {
    explicit EventTable(sqlite::Database& database)
        : rows(database), chunks(TableOf<Row>::name, TableOf<Row>::columns) {}
    void add(const Row& row, sqlite::Statement& insert_chunk) {
      rows.add(row);
      chunks.add(row, insert_chunk);
    }
    void finish(sqlite::Statement& insert_chunk) { chunks.finish(insert_chunk); }
    BatchedInsert<Row> rows;
    TableChunkStream chunks;
  };
  EventTable<KernelRow>& table_of(const KernelRow&) { return kernels; }
  EventTable<MemcpyRow>& table_of(const MemcpyRow&) { return memcpys; }
  EventTable<MemsetRow>& table_of(const MemsetRow&) { return memsets; }
  EventTable<ApiCallRow>& table_of(const ApiCallRow&) { return api_calls; }
  EventTable<SyncRow>& table_of(const SyncRow&) { return syncs; }
  EventTable<RangeRow>& table_of(const RangeRow&) { return ranges; }

  sqlite::Statement insert_string, insert_meta, insert_device, insert_device_link, delete_stat, insert_stat,
      insert_chunk;
  EventTable<KernelRow> kernels;
  EventTable<MemcpyRow> memcpys;
  EventTable<MemsetRow> memsets;
  EventTable<ApiCallRow> api_calls;
  EventTable<SyncRow> syncs;
  EventTable<RangeRow> ranges;
  BatchedInsert<CollectiveRow> collectives;
  BatchedInsert<MemoryEventRow> memory_events;
  BatchedInsert<ThreadStateRow> thread_states;
};

TraceStore::TraceStore(const std::string& path, const WriterOptions& options)
    : rows_per_transaction_(options.rows_per_transaction),
      database_(open_fresh(path, options)),
      statements_(std::make_unique<Statements>(database_)),
      build_indexes_(options.build_indexes) {}

TraceStore::~TraceStore() { close(); }

void TraceStore::close() {
  statements_.reset();
  database_.close();
}

void TraceStore::begin_if_needed() {
  if (in_transaction_) return;
  database_.execute("BEGIN");
  in_transaction_ = true;
}

void TraceStore::commit() {
  if (!in_transaction_) return;
  statements_->flush_batches();
  database_.execute("COMMIT");
  in_transaction_ = false;
  rows_in_transaction_ = 0;
}

void TraceStore::count_row() {
  if (++rows_in_transaction_ >= rows_per_transaction_) commit();
}

template <typename Row>
void TraceStore::add_single(sqlite::Statement& statement, const Row& row) {
  bind_row(statement, 1, row);
  statement.run();
  count_row();
}

void TraceStore::apply(const WriteOp& op) {
  std::visit([this](const auto& value) { apply(value); }, op);
}

void TraceStore::write(const InternedString& string) {
  auto& insert = statements_->insert_string;
  insert.bind(1, std::int64_t{string.id});
  insert.bind(2, std::string_view(string.text));
  insert.run();
}

void TraceStore::write(const MetaEntry& entry) {
  auto& insert = statements_->insert_meta;
  insert.bind(1, std::string_view(entry.key));
  insert.bind(2, std::string_view(entry.value));
  insert.run();
}

void TraceStore::write(const StatRow& stat) {
  auto& s = *statements_;
  s.delete_stat.bind(1, std::string_view(stat.name));
  s.delete_stat.run();
  s.insert_stat.bind(1, std::string_view(stat.name));
  s.insert_stat.bind(2, stat.value);
  s.insert_stat.bind(3, to_string(stat.severity));
  s.insert_stat.bind(4, stat.detail);
  s.insert_stat.run();
}

void TraceStore::write(const DeviceRow& row) { add_single(statements_->insert_device, row); }
void TraceStore::write(const DeviceLinkRow& row) { add_single(statements_->insert_device_link, row); }

void TraceStore::write(const CollectiveRow& row) {
  statements_->collectives.add(row);
  count_row();
}

void TraceStore::write(const MemoryEventRow& row) {
  statements_->memory_events.add(row);
  count_row();
}

void TraceStore::write(const ThreadStateRow& row) {
  statements_->thread_states.add(row);
  count_row();
}

// A chunk goes in before count_row() may commit, so that every commit holds the
// chunks of the rows it holds.
template <typename Row>
void TraceStore::write_event(const Row& row) {
  statements_->table_of(row).add(row, statements_->insert_chunk);
  count_row();
}

void TraceStore::write(const KernelRow& row) { write_event(row); }
void TraceStore::write(const MemcpyRow& row) { write_event(row); }
void TraceStore::write(const MemsetRow& row) { write_event(row); }
void TraceStore::write(const ApiCallRow& row) { write_event(row); }
void TraceStore::write(const SyncRow& row) { write_event(row); }
void TraceStore::write(const RangeRow& row) { write_event(row); }

void TraceStore::finish() {
  begin_if_needed();
  statements_->finish_chunks();
  commit();
  database_.execute("BEGIN");
  // The guards mark the chunks complete: readers use chunks only in files that have them.
  install_chunk_guards(database_);
  if (build_indexes_) database_.execute(index_sql());
  database_.execute("COMMIT");
  close();
}

void TraceStore::abandon(Durability durability) noexcept {
  try {
    if (durability == Durability::crash_safe) commit();
  } catch (...) {
    // Called from destructors, which must not throw; the file stays valid up to its last commit.
  }
  close();
}

}  // namespace gpuprof::trace
