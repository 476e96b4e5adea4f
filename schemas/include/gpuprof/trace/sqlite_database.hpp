#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpuprof/trace/trace_error.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace gpuprof::sqlite {

// read_only opens a WAL-mode file without -wal and -shm immutable, creating
// nothing beside it; read_only_locked always takes SQLite's locks (and may leave
// those side files), for a file that changed under an immutable read.
enum class OpenMode { read_only, read_only_locked, read_write, create };

// A schema object as sqlite_master stores it: its name and its CREATE statement.
struct StoredCode {
  std::string name;
  std::string sql;
};

// The most heap SQLite may hold in a gpuprof program: far above what reading
// or writing any trace needs, so that a file that asks for more (a hostile
// schema, a damaged page chain) ends with SQLITE_NOMEM, one line and exit 2,
// instead of taking the machine's memory.
inline constexpr std::int64_t kHardHeapLimitBytes = std::int64_t{2} << 30;

// Process-wide SQLite settings for the CLI and the app, which read files from
// anywhere: the hard heap limit above, or `heap_limit_bytes` (it needs SQLite's memory statistics
// on, so they stay on). Call first thing in main(). Never called by the
// collector, which must not change its host program's SQLite.
void configure_for_untrusted_files(std::int64_t heap_limit_bytes = kHardHeapLimitBytes);

// How long a connection waits for another program's lock before giving up.
inline constexpr int kBusyTimeoutMs = 5000;
// How many SQLite instructions pass between two checks of the work budget.
inline constexpr int kProgressStep = 100000;
// The work budget of a connection to an existing file: generous for any real
// trace (a few thousand instructions per stored row), yet a file cannot keep a
// reader busy for long beyond what its size explains.
inline constexpr std::uint64_t kMinimumWork = 2'000'000'000;
inline constexpr std::uint64_t kWorkPerByte = 5'000;

// One SQLite connection. Errors throw TraceError naming the file, with one
// sentence per kind of problem and never the SQL text. Every connection is
// defensive: no triggers or views run, no schema functions are trusted, the
// file cannot be corrupted through SQL, and a lock is waited for briefly.
class Database {
 public:
  Database(const std::string& path, OpenMode mode);
  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void execute(std::string_view sql);
  // Runs a query that yields one integer, or nullopt when it yields no row / NULL.
  std::optional<std::int64_t> query_int(std::string_view sql);
  bool has_table(std::string_view name);
  // Triggers anywhere except those equal to one of `accepted` (name and SQL
  // text compared exactly), views named like one of `tables`, generated columns
  // and virtual tables anywhere: code in the file that reading would run.
  std::vector<std::string> code_objects(const std::vector<std::string>& tables,
                                        const std::vector<StoredCode>& accepted);
  // Throws bad_input naming the first of code_objects(tables, accepted), if any.
  void refuse_code(const std::vector<std::string>& tables, const std::vector<StoredCode>& accepted);
  // Interrupts any statement once this connection has run `instructions`
  // SQLite instructions in all, so a hostile file cannot make a read endless.
  // Every connection to an existing file starts with kMinimumWork +
  // kWorkPerByte per byte of the file.
  void limit_work(std::uint64_t instructions);
  // What is left of the budget; nullopt for a connection without one (a file we create).
  std::optional<std::uint64_t> work_left() const;
  void close();

  sqlite3* handle() const { return handle_; }
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(std::string_view what) const;
  // A WAL-mode file without -wal and -shm is opened immutable (no side files
  // beside the user's file), which also means without locks: a writer that
  // connects and checkpoints meanwhile changes pages under the reader (issue 27:
  // the false "database disk image is malformed"). Throws BusyError when the
  // file was opened so and has changed since; a no-op otherwise.
  void check_unchanged_since_open() const;

  // What identifies a file's content without reading it.
  struct FileStamp {
    std::uint64_t device = 0, inode = 0, size = 0;
    std::int64_t modified_ns = 0, changed_ns = 0;
    bool operator==(const FileStamp&) const = default;
  };

 private:
  void harden();

  sqlite3* handle_ = nullptr;
  std::string path_;
  std::unique_ptr<std::uint64_t> work_budget_;
  std::optional<FileStamp> immutable_stamp_;  // set only for a connection opened immutable
};

// The file stayed locked by another program for kBusyTimeoutMs, or changed
// under a connection without locks: bad input like any TraceError, and a reader
// may try once more (a writer committing in a loop can outlast one wait on a
// busy machine).
class BusyError : public TraceError {
 public:
  using TraceError::TraceError;
};

// Starts a read transaction on both connections (to the same file) with both
// shared locks held, so that they read one commit and no writer can commit
// until both are closed or end their transaction. Taking the locks one
// statement at a time let a writer's PENDING lock, waiting for one connection,
// shut the other out until its busy timeout ran out (issue 27).
void read_in_one_snapshot(Database& first, Database& second);

// A prepared statement. Columns and parameters are numbered as in SQLite:
// bind from 1, column from 0.
class Statement {
 public:
  Statement(Database& database, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind(int index, std::int64_t value);
  void bind(int index, double value);
  void bind(int index, std::string_view value);
  void bind_null(int index);
  void bind_blob(int index, std::span<const std::uint8_t> bytes);
  template <typename T>
  void bind(int index, const std::optional<T>& value) {
    if (value) {
      bind(index, static_cast<std::int64_t>(*value));
    } else {
      bind_null(index);
    }
  }
  void bind(int index, const std::optional<std::string>& value);

  // Steps once; true while a row is available.
  bool step();
  // Runs a statement that returns no rows, then resets it for reuse.
  void run();
  void reset();

  bool is_null(int column) const;
  std::int64_t column_int(int column) const;
  std::optional<std::int64_t> column_optional_int(int column) const;
  double column_double(int column) const;
  std::string_view column_text(int column) const;
  // The column's bytes when it holds a BLOB, else nullopt (a hostile file may hold anything).
  std::optional<std::span<const std::uint8_t>> column_blob(int column) const;
  int column_count() const;
  // For hot loops that read many columns per row.
  sqlite3_stmt* raw() const { return statement_; }

 private:
  Database* database_;
  sqlite3_stmt* statement_ = nullptr;
};

}  // namespace gpuprof::sqlite
