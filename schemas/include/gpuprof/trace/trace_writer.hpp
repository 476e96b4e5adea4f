#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "gpuprof/trace/records.hpp"

namespace gpuprof::sqlite {
class Database;
}

namespace gpuprof::trace {

enum class Durability {
  // Offline tools (synth, import): rows go to a temporary file beside the output,
  // renamed into place by finish(). A writer destroyed before finish() removes it,
  // so a failed run never leaves a partial output file.
  atomic,
  // The collector: the file is written in place and every flush() commits, so a
  // killed process leaves a valid file holding everything flushed before it.
  crash_safe,
};

// A kernel's name as traces store it (DESIGN.md, "Kernel names").
struct KernelName {
  StringId name = 0;                // demangled when the source's name was mangled
  std::optional<StringId> mangled;  // the mangled spelling, kept when `name` differs from it
  friend bool operator==(const KernelName&, const KernelName&) = default;
};

struct WriterOptions {
  std::string path;
  Durability durability = Durability::atomic;
  bool overwrite = false;
  // Rows after which a transaction is committed even without flush().
  std::uint64_t rows_per_transaction = 500'000;
  std::string tool_version;
  // SQLite's inserts run on a thread of the writer's own, overlapping with the
  // caller's work (an importer parsing its source). Offline tools only: the
  // collector adds no threads to the program it is injected into.
  bool background_writes = false;
  // The indexes for SQL users (index.sql) are built by finish(). The collector
  // leaves them to `gpuprof record`, after the program has exited: building them
  // took most of the program's exit (build_trace_indexes, trace_indexes.hpp).
  bool build_indexes = true;
};

// Creates a trace file and writes rows in large transactions through prepared
// statements. Not thread-safe: one thread calls it (with background_writes,
// SQLite runs on a second one, which the writer owns). Errors of background
// writes are thrown by a later add(), flush() or finish().
class TraceWriter {
 public:
  explicit TraceWriter(WriterOptions options);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  void set_meta(std::string_view key, std::string_view value);
  StringId intern(std::string_view text);
  // Every producer (collector, importers) names kernels through this, so that
  // demangling happens in one place. `reported` is the source's name;
  // `demangled` is the source's own demangling where it has one (Nsight Systems).
  KernelName intern_kernel_name(std::string_view reported, std::string_view demangled = {});

  // A row of any table in WrittenRows (records.hpp).
  template <WrittenRow Row>
  void add(const Row& row);
  // Replaces any earlier value of the same name, so counters can be updated.
  void set_stat(const StatRow& row);

  // Commits what was added so far.
  void flush();
  // Commits, builds the indexes and publishes the file. The writer is closed afterwards.
  void finish();

  std::uint64_t rows_written() const;
  const std::string& path() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Rewrites the column chunks (`event_chunks`) of a finished file from its rows,
// inside the caller's transaction: for code that changes event rows after
// finish() (the importers' late time base), so the chunks stay a true copy.
// Our connections run no triggers, so the chunk guards (chunk_guards.hpp) do
// not fire here; they are recreated, so the file keeps them.
void rewrite_event_chunks(sqlite::Database& database);

}  // namespace gpuprof::trace
