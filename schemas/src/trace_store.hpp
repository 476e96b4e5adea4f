#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "write_ops.hpp"

namespace gpuprof::trace {

// The SQLite side of a TraceWriter: a fresh trace file, its prepared
// statements and transactions. Applies writes in the order given; used by one
// thread at a time (the writer's, or its background thread's).
class TraceStore {
 public:
  TraceStore(const std::string& path, const WriterOptions& options);
  ~TraceStore();
  TraceStore(const TraceStore&) = delete;
  TraceStore& operator=(const TraceStore&) = delete;

  void apply(const WriteOp& op);
  // One write of a known kind, without wrapping it in a WriteOp (the writer's
  // own thread, where a variant copy per row would be wasted).
  template <typename Op>
  void apply(const Op& op) {
    if constexpr (std::is_same_v<Op, CommitPoint>) {
      commit();
    } else {
      begin_if_needed();
      write(op);
    }
  }
  // Commits every write applied so far.
  void commit();
  // Writes the last chunks, the chunk guards and the indexes, commits and closes.
  void finish();
  // Closes without finishing: a crash-safe file keeps what was applied.
  void abandon(Durability durability) noexcept;

 private:
  struct Statements;
  void begin_if_needed();
  void count_row();
  // One per kind of WriteOp but CommitPoint; the rows of every table through one template.
  void write(const InternedString& string);
  void write(const MetaEntry& entry);
  void write(const StatRow& stat);
  template <WrittenRow Row>
  void write(const Row& row);
  template <typename>
  friend struct RowWrites;
  void close();

  std::uint64_t rows_per_transaction_;
  sqlite::Database database_;
  // Statements must be finalized before the connection closes, or SQLite keeps
  // it open (and the file locked) until they are.
  std::unique_ptr<Statements> statements_;
  std::uint64_t rows_in_transaction_ = 0;
  bool in_transaction_ = false;
  bool build_indexes_ = true;
};

}  // namespace gpuprof::trace
