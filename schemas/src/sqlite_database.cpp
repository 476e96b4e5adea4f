#include "gpuprof/trace/sqlite_database.hpp"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <array>
#include <chrono>
#include <climits>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <utility>

#include "gpuprof/trace/input_file.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::sqlite {

void configure_for_untrusted_files(std::int64_t heap_limit_bytes) {
  sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 1);
  sqlite3_hard_heap_limit64(heap_limit_bytes);
}

namespace {
// SQLite's own busy handler backs off to 100 ms between tries; a writer that
// commits in a loop (a live recording) holds its lock most of the time, so a
// reader that looks every 100 ms mostly finds it taken and gave up after
// kBusyTimeoutMs (issue 27). Looking every millisecond finds the gaps.
// `limit`: the most tries (one a millisecond), or nullptr for kBusyTimeoutMs.
int wait_for_lock(void* limit, int tries) {
  if (tries >= (limit != nullptr ? *static_cast<const int*>(limit) : kBusyTimeoutMs)) return 0;
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return 1;
}
}  // namespace

namespace {
constexpr std::size_t kMaxSqlitePathBytes = 512;  // MAX_PATHNAME of SQLite's unix VFS

// SQLite's unix VFS sizes its path buffers by mxPathname (512 bytes). A copy
// of it that says PATH_MAX reaches files at longer paths, but only for
// immutable reads: opening a journal or a WAL copies the path into a fixed
// 512-byte buffer, so no other open may use it. Null if there is no unix VFS.
sqlite3_vfs* long_path_vfs() {
  static sqlite3_vfs* const registered = []() -> sqlite3_vfs* {
    const sqlite3_vfs* unix_vfs = sqlite3_vfs_find("unix");
    if (unix_vfs == nullptr) return nullptr;
    static sqlite3_vfs copy = *unix_vfs;
    copy.zName = "gpuprof-long-paths";
    copy.mxPathname = PATH_MAX;
    copy.pNext = nullptr;
    return sqlite3_vfs_register(&copy, 0) == SQLITE_OK ? &copy : nullptr;
  }();
  return registered;
}

bool exists_beside(const std::string& path, const char* suffix) {
  std::error_code ignored;
  return std::filesystem::exists(path + suffix, ignored);
}

std::string fmt_percent(char c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const auto byte = static_cast<unsigned char>(c);
  return {'%', kHex[byte >> 4], kHex[byte & 15]};
}

// A -wal that holds no frames SQLite would read: shorter than its 32-byte
// header, or without the WAL magic number (SQLite ignores such a file).
bool wal_holds_nothing(const std::string& wal) {
  std::ifstream file(wal, std::ios::binary);
  std::array<unsigned char, 32> header{};
  if (!file.read(reinterpret_cast<char*>(header.data()), header.size())) return true;
  return !(header[0] == 0x37 && header[1] == 0x7f && header[2] == 0x06 && (header[3] == 0x82 || header[3] == 0x83));
}

// A file in WAL mode (header bytes 18 and 19 are 2) that no writer has open
// (no -shm; a -wal, if any, holds nothing): reading it normally would create
// both side files beside the user's file. A -wal with frames and no -shm is
// refused: reading it would need a -shm, ignoring it would lose its commits.
// A writer that closes removes its -shm just before its -wal (checkpointed
// by then): for that moment the file looks like one whose writer stopped
// mid-write, so that look is waited out as a lock is (a reader under CPU load
// once called a live trace damaged there).
bool wal_without_side_files(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::array<char, 20> header{};
  if (!file.read(header.data(), header.size()) || header[18] != 2 || header[19] != 2) return false;
  for (int tries = 0;; ++tries) {
    if (exists_beside(path, "-shm")) return false;
    if (!exists_beside(path, "-wal") || wal_holds_nothing(path + "-wal")) return true;
    if (wait_for_lock(nullptr, tries) == 0) break;
  }
  throw TraceError::bad_input(path, "has a -wal file with changes but no -shm beside it (a writer stopped mid-write); "
                                    "gpuprof never changes an input: open it once with sqlite3, which folds the -wal "
                                    "in, or remove " + path + "-wal if it is not this file's");
}

// SQLite quotes the file's own schema in some reasons ("malformed database
// schema (NAME) - near ...": any text the file chose); only the fixed start is kept.
std::string reason_without_file_text(const char* reason) {
  const std::string_view text(reason);
  for (const char* fixed : {"malformed database schema", "error in view", "error in trigger", "error in index"}) {
    if (text.starts_with(fixed)) return fixed;
  }
  return printable(text);
}

// SQLite would block forever opening a FIFO and read a device without end.
void refuse_unless_regular(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) {
    if (errno == ELOOP) throw TraceError::bad_input(path, "is a loop of symbolic links; name the file itself");
    return;  // absent: SQLite says so
  }
  if (S_ISREG(status.st_mode)) return;
  throw TraceError::bad_input(path, std::string("is ") + kind_of_file(status.st_mode) +
                                        ", not a SQLite file (gpuprof reads regular files only)");
}

// `path` as a URI that opens it read-only without touching anything beside it.
std::string immutable_uri(const std::string& path) {
  std::string uri = "file:";
  for (const char c : std::filesystem::absolute(path).string()) {
    if (c == '%' || c == '?' || c == '#') uri += fmt_percent(c);
    else uri += c;
  }
  return uri + "?immutable=1";
}

// A stamp no file has: a file that cannot be stat'ed counts as changed.
Database::FileStamp stamp_of(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return {};
  constexpr std::int64_t kNsPerSecond = 1'000'000'000;
  return {static_cast<std::uint64_t>(status.st_dev), static_cast<std::uint64_t>(status.st_ino),
          static_cast<std::uint64_t>(status.st_size),
          std::int64_t{status.st_mtim.tv_sec} * kNsPerSecond + status.st_mtim.tv_nsec,
          std::int64_t{status.st_ctim.tv_sec} * kNsPerSecond + status.st_ctim.tv_nsec};
}

// SQLite's file layer resolves every path to an absolute one; past 512 bytes
// only long_path_vfs() can open it.
bool is_past_sqlite_path_limit(const std::string& path) {
  std::error_code ignored;
  return std::filesystem::absolute(path, ignored).string().size() >= kMaxSqlitePathBytes;
}

// A long path is read immutable, without locks and without a journal, so a
// file that is written (or was left mid-commit) must not be read that way.
void refuse_long_path_unless_readable(const std::string& path, bool reading) {
  const std::string limit = "longer than the " + std::to_string(kMaxSqlitePathBytes) + " bytes SQLite can ";
  if (!reading || long_path_vfs() == nullptr) {
    throw TraceError::bad_input(path, "has a path " + limit + (reading ? "open" : "write") +
                                          "; use a shorter path (a symbolic link will not do: SQLite follows it)");
  }
  if (exists_beside(path, "-wal") || exists_beside(path, "-journal")) {
    throw TraceError::bad_input(path, "is being written (it has a -wal or -journal file) and has a path " + limit +
                                          "lock; read it when the writer has finished, or from a shorter path");
  }
}

constexpr const char* kChangedWhileRead =
    "was changed by another program while gpuprof read it (a writer in WAL mode); try again when it has finished";
}  // namespace

Database::Database(const std::string& path, OpenMode mode) : path_(path) {
  refuse_unless_regular(path);
  int flags = SQLITE_OPEN_NOMUTEX;
  switch (mode) {
    case OpenMode::read_only:
    case OpenMode::read_only_locked: flags |= SQLITE_OPEN_READONLY; break;
    case OpenMode::read_write: flags |= SQLITE_OPEN_READWRITE; break;
    case OpenMode::create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE; break;
  }
  const bool reading = mode == OpenMode::read_only || mode == OpenMode::read_only_locked;
  const bool long_path = is_past_sqlite_path_limit(path);
  if (long_path) refuse_long_path_unless_readable(path, reading);
  // Taken before the side files are looked at, so that a writer that opens after that look and checkpoints
  // while the file is read changes the stamp (taken after the look, it could fall inside that checkpoint).
  const auto stamp = stamp_of(path);
  // A long path can only be read immutable: see long_path_vfs().
  const bool immutable = long_path || (mode == OpenMode::read_only && wal_without_side_files(path));
  const std::string name = immutable ? immutable_uri(path) : path;
  if (immutable) immutable_stamp_ = stamp;
  const int status = sqlite3_open_v2(name.c_str(), &handle_, flags | (immutable ? SQLITE_OPEN_URI : 0),
                                     long_path ? "gpuprof-long-paths" : nullptr);
  if (status != SQLITE_OK) {
    std::string message = reason_without_file_text(handle_ ? sqlite3_errmsg(handle_) : sqlite3_errstr(status));
    sqlite3_close(handle_);
    handle_ = nullptr;
    throw TraceError::bad_input(path, "cannot open as SQLite: " + message);
  }
  sqlite3_extended_result_codes(handle_, 1);
  sqlite3_busy_handler(handle_, wait_for_lock, nullptr);
  // A file we create is ours (and journal_mode=OFF, which the writer uses, is
  // not allowed on a defensive connection); every existing file is not.
  if (mode != OpenMode::create) {
    harden();
    std::error_code size_error;
    const auto bytes = std::filesystem::file_size(path, size_error);
    limit_work(kMinimumWork + (size_error ? 0 : std::uint64_t{bytes} * kWorkPerByte));
  }
}

// Trace files come from anywhere: SQLite must not run triggers, views or
// functions from a file's schema, nor let SQL corrupt the file.
void Database::harden() {
  sqlite3_db_config(handle_, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(handle_, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(handle_, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
  sqlite3_db_config(handle_, SQLITE_DBCONFIG_ENABLE_VIEW, 0, nullptr);
}

namespace {
// Called by SQLite every kProgressStep virtual-machine instructions; a non-zero
// return interrupts the statement (SQLITE_INTERRUPT).
int count_work(void* context) {
  auto* budget = static_cast<std::uint64_t*>(context);
  if (*budget < kProgressStep) return 1;
  *budget -= kProgressStep;
  return 0;
}
}  // namespace

void Database::limit_work(std::uint64_t instructions) {
  work_budget_ = std::make_unique<std::uint64_t>(instructions);
  sqlite3_progress_handler(handle_, kProgressStep, count_work, work_budget_.get());
}

std::optional<std::uint64_t> Database::work_left() const {
  if (!work_budget_) return std::nullopt;
  return *work_budget_;
}

std::vector<std::string> Database::code_objects(const std::vector<std::string>& tables,
                                               const std::vector<StoredCode>& accepted) {
  std::vector<std::string> found;
  Statement triggers(*this, "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'");
  while (triggers.step()) {
    const std::string_view name = triggers.column_text(0), sql = triggers.column_text(1);
    const bool ours = std::any_of(accepted.begin(), accepted.end(), [&](const StoredCode& known) {
      return known.name == name && known.sql == sql;
    });
    if (!ours) found.push_back("trigger " + std::string(name));
  }
  Statement views(*this, "SELECT name FROM sqlite_master WHERE type = 'view'");
  while (views.step()) {
    const std::string name(views.column_text(0));
    for (const auto& table : tables) {
      if (sqlite3_stricmp(name.c_str(), table.c_str()) == 0) found.push_back("view " + name);
    }
  }
  // A generated column computes its value on every read from an expression the
  // file chose (hidden 2: virtual, 3: stored); a virtual table runs a module.
  Statement generated(*this,
                      "SELECT m.name, c.name FROM sqlite_master AS m, pragma_table_xinfo(m.name) AS c "
                      "WHERE m.type = 'table' AND c.hidden IN (2, 3)");
  while (generated.step()) {
    found.push_back("generated column " + std::string(generated.column_text(0)) + "." +
                    std::string(generated.column_text(1)));
  }
  Statement virtual_tables(*this, "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL %'");
  while (virtual_tables.step()) found.push_back("virtual table " + std::string(virtual_tables.column_text(0)));
  return found;
}

void Database::refuse_code(const std::vector<std::string>& tables, const std::vector<StoredCode>& accepted) {
  const auto found = code_objects(tables, accepted);
  if (found.empty()) return;
  throw TraceError::bad_input(path_, "contains " + found.front() +
                                         (found.size() > 1 ? " and " + std::to_string(found.size() - 1) + " more" : "") +
                                         "; gpuprof never runs code stored in a trace file");
}

Database::~Database() { close(); }

Database::Database(Database&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      path_(std::move(other.path_)),
      work_budget_(std::move(other.work_budget_)),
      immutable_stamp_(std::exchange(other.immutable_stamp_, std::nullopt)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    close();
    handle_ = std::exchange(other.handle_, nullptr);
    path_ = std::move(other.path_);
    work_budget_ = std::move(other.work_budget_);
    immutable_stamp_ = std::exchange(other.immutable_stamp_, std::nullopt);
  }
  return *this;
}

void Database::check_unchanged_since_open() const {
  if (immutable_stamp_ && stamp_of(path_) != *immutable_stamp_) {
    throw BusyError(TraceError::Kind::bad_input, path_, kChangedWhileRead);
  }
}

void Database::close() {
  if (handle_) {
    sqlite3_close_v2(handle_);
    handle_ = nullptr;
  }
}

namespace {
// One sentence about the file for each class of SQLite error; SQL text never
// reaches the user, only SQLite's own short reason.
std::string describe_error(int extended, const std::string& reason) {
  if (extended == SQLITE_READONLY_ROLLBACK) {
    return "has a -journal file beside it from a write that did not finish; gpuprof never changes an input: open "
           "it once with sqlite3, which rolls that write back, or remove the -journal if it is not this file's";
  }
  const int primary = extended & 0xff;
  switch (primary) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB: return std::string("is damaged or not a SQLite database (") + reason + ")";
    case SQLITE_ERROR: return std::string("does not have the tables and columns gpuprof expects (") + reason + ")";
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return "is locked by another program (waited " + std::to_string(kBusyTimeoutMs / 1000) + " s); try again "
             "when it has finished";
    case SQLITE_INTERRUPT: return "needs far more work to read than its size explains (a damaged or hostile file?)";
    case SQLITE_READONLY: return std::string("cannot be written (") + reason + ")";
    case SQLITE_CANTOPEN: return std::string("cannot be opened (") + reason + ")";
    case SQLITE_NOMEM:
      return "needs more memory than gpuprof lets SQLite use (" + std::to_string(kHardHeapLimitBytes >> 30) +
             " GiB; a damaged or hostile file?)";
    default: return std::string("cannot be read or written (") + reason + ")";
  }
}
}  // namespace

void Database::fail(std::string_view /*what*/) const {
  const int extended = sqlite3_extended_errcode(handle_);
  const int primary = extended & 0xff;
  // SQLite's reason may quote the file's schema: any bytes, newlines and escapes included.
  const std::string message = describe_error(extended, reason_without_file_text(sqlite3_errmsg(handle_)));
  if (immutable_stamp_) {
    // Without locks, "damaged" may only mean a writer checkpointed meanwhile: a
    // reader tries again, and a file damaged for real fails the same way then.
    if (stamp_of(path_) != *immutable_stamp_) throw BusyError(TraceError::Kind::bad_input, path_, kChangedWhileRead);
    if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) {
      throw BusyError(TraceError::Kind::bad_input, path_, message);
    }
  }
  // Damaged, foreign, locked or hostile files are the user's input problem; I/O and space errors are ours.
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) throw BusyError(TraceError::Kind::bad_input, path_, message);
  if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_ERROR ||
      primary == SQLITE_READONLY || primary == SQLITE_CANTOPEN || primary == SQLITE_BUSY ||
      primary == SQLITE_LOCKED || primary == SQLITE_INTERRUPT || primary == SQLITE_NOMEM) {
    throw TraceError::bad_input(path_, message);
  }
  throw TraceError::failure(path_, message);
}

void Database::execute(std::string_view sql) {
  char* error = nullptr;
  const std::string text(sql);
  if (sqlite3_exec(handle_, text.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    sqlite3_free(error);
    fail("SQL failed");
  }
}

std::optional<std::int64_t> Database::query_int(std::string_view sql) {
  Statement statement(*this, sql);
  if (!statement.step()) return std::nullopt;
  return statement.column_optional_int(0);
}

bool Database::has_table(std::string_view name) {
  Statement statement(*this, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  statement.bind(1, name);
  return statement.step();
}

Statement::Statement(Database& database, std::string_view sql) : database_(&database) {
  if (sqlite3_prepare_v2(database.handle(), sql.data(), static_cast<int>(sql.size()), &statement_,
                         nullptr) != SQLITE_OK) {
    database.fail("cannot prepare");
  }
}

Statement::~Statement() { sqlite3_finalize(statement_); }

Statement::Statement(Statement&& other) noexcept
    : database_(other.database_), statement_(std::exchange(other.statement_, nullptr)) {}

void Statement::bind(int index, std::int64_t value) { sqlite3_bind_int64(statement_, index, value); }
void Statement::bind(int index, double value) { sqlite3_bind_double(statement_, index, value); }
void Statement::bind(int index, std::string_view value) {
  sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}
void Statement::bind_null(int index) { sqlite3_bind_null(statement_, index); }
void Statement::bind_blob(int index, std::span<const std::uint8_t> bytes) {
  sqlite3_bind_blob64(statement_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT);
}
void Statement::bind(int index, const std::optional<std::string>& value) {
  if (value) {
    bind(index, std::string_view(*value));
  } else {
    bind_null(index);
  }
}

bool Statement::step() {
  const int status = sqlite3_step(statement_);
  if (status == SQLITE_ROW) return true;
  if (status == SQLITE_DONE) return false;
  database_->fail("query failed");
}

void Statement::run() {
  const int status = sqlite3_step(statement_);
  sqlite3_reset(statement_);
  if (status != SQLITE_DONE && status != SQLITE_ROW) database_->fail("write failed");
}

void Statement::reset() { sqlite3_reset(statement_); }

bool Statement::is_null(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}
std::int64_t Statement::column_int(int column) const { return sqlite3_column_int64(statement_, column); }
std::optional<std::int64_t> Statement::column_optional_int(int column) const {
  if (is_null(column)) return std::nullopt;
  return sqlite3_column_int64(statement_, column);
}
double Statement::column_double(int column) const { return sqlite3_column_double(statement_, column); }
std::string_view Statement::column_text(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
  if (!text) return {};
  return {text, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))};
}

int Statement::column_count() const { return sqlite3_column_count(statement_); }

std::optional<std::span<const std::uint8_t>> Statement::column_blob(int column) const {
  if (sqlite3_column_type(statement_, column) != SQLITE_BLOB) return std::nullopt;
  const auto* bytes = static_cast<const std::uint8_t*>(sqlite3_column_blob(statement_, column));
  const auto size = static_cast<std::size_t>(sqlite3_column_bytes(statement_, column));
  if (!bytes) return std::span<const std::uint8_t>();
  return std::span<const std::uint8_t>(bytes, size);
}

namespace {
// Starts a read transaction and takes its shared lock, waiting at most `tries` ms.
bool try_begin_read(sqlite3* handle, int tries) {
  sqlite3_busy_handler(handle, wait_for_lock, &tries);
  const bool begun = sqlite3_exec(handle, "BEGIN; SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr) ==
                     SQLITE_OK;
  if (!begun && sqlite3_get_autocommit(handle) == 0) sqlite3_exec(handle, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_busy_handler(handle, wait_for_lock, nullptr);
  return begun;
}
}  // namespace

void read_in_one_snapshot(Database& first, Database& second) {
  constexpr int kSecondTries = 20;
  for (int waited = 0; waited < kBusyTimeoutMs; waited += kSecondTries) {
    if (!try_begin_read(first.handle(), kBusyTimeoutMs - waited)) break;
    if (try_begin_read(second.handle(), kSecondTries)) return;
    // A writer took its PENDING lock between the two: it waits for `first`, and
    // `second` for it. Let it commit, then try both again.
    sqlite3_exec(first.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
  throw BusyError(TraceError::Kind::bad_input, first.path(), describe_error(SQLITE_BUSY, ""));
}

}  // namespace gpuprof::sqlite
