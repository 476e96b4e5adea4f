#include "trace_store.hpp"

#include <filesystem>
#include <tuple>
#include <type_traits>

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

// One table's rows, and its column chunks (encoded as the rows arrive) where it has them.
template <typename Row>
struct TableInserts {
  static constexpr bool kChunked = TableDeclaration<Row>::options.chunked;
  struct NoChunks {};

  explicit TableInserts(sqlite::Database& database) : rows(database), chunks(make_chunks()) {}
  static auto make_chunks() {
    if constexpr (kChunked) {
      return TableChunkStream(TableDeclaration<Row>::name, kColumnCount<Row>);
    } else {
      return NoChunks{};
    }
  }
  void add(const Row& row, sqlite::Statement& insert_chunk) {
    rows.add(row);
    if constexpr (kChunked) chunks.add(row, insert_chunk);
  }
  void finish_chunks(sqlite::Statement& insert_chunk) {
    if constexpr (kChunked) chunks.finish(insert_chunk);
  }

  BatchedInsert<Row> rows;
  std::conditional_t<kChunked, TableChunkStream, NoChunks> chunks;
};

template <typename List>
struct AllTableInserts;
template <typename... Rows>
struct AllTableInserts<RowTypes<Rows...>> {
  template <typename>
  static sqlite::Database& database_for(sqlite::Database& database) {
    return database;
  }
  explicit AllTableInserts(sqlite::Database& database) : tables(database_for<Rows>(database)...) {}
  std::tuple<TableInserts<Rows>...> tables;
};

struct TraceStore::Statements {
  explicit Statements(sqlite::Database& database)
      : insert_string(database, "INSERT INTO strings(id, value) VALUES (?, ?)"),
        insert_meta(database, "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)"),
        delete_stat(database, "DELETE FROM collector_stats WHERE name = ?"),
        insert_stat(database, "INSERT INTO collector_stats VALUES (?, ?, ?, ?)"),
        insert_chunk(database, kInsertChunkSql),
        inserts(database) {}

  template <typename Row>
  TableInserts<Row>& table() {
    return std::get<TableInserts<Row>>(inserts.tables);
  }
  // Commits must see every row added before them.
  void flush_batches() {
    std::apply([](auto&... table) { (table.rows.flush(), ...); }, inserts.tables);
  }
  void finish_chunks() {
    std::apply([this](auto&... table) { (table.finish_chunks(insert_chunk), ...); }, inserts.tables);
  }

  sqlite::Statement insert_string, insert_meta, delete_stat, insert_stat, insert_chunk;
  AllTableInserts<WrittenRows> inserts;
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

// A chunk goes in before count_row() may commit, so that every commit holds the
// chunks of the rows it holds.
template <WrittenRow Row>
void TraceStore::write(const Row& row) {
  statements_->table<Row>().add(row, statements_->insert_chunk);
  count_row();
}

// Compiles write() here for every written table, where Statements is known.
template <typename List>
struct RowWrites;
template <typename... Rows>
struct RowWrites<RowTypes<Rows...>> {
  static auto functions() { return std::tuple{static_cast<void (TraceStore::*)(const Rows&)>(&TraceStore::write<Rows>)...}; }
};
template struct RowWrites<WrittenRows>;

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
