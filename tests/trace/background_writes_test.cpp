// Writes applied on the writer's background thread: the same file as writing
// in the caller's thread, errors surfacing in the caller, no hang when a
// writer is dropped with writes still queued. (Crash-safe flushes with
// background writes: TraceWriterBehaviour.CrashSafeFileSurvivesSigkill.)
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "background_writes.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::trace {
namespace {

// Every table's rows in rowid order, as text, leaving out the two times of day.
std::string dump(const std::string& path) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::string out;
  for (const char* table : {"meta", "strings", "devices", "kernels", "memcpys", "memsets", "api_calls", "syncs",
                            "ranges", "collectives", "collector_stats", "event_chunks"}) {
    sqlite3_stmt* statement = nullptr;
    const std::string name = table;
    // meta and event_chunks have no rowid: ordered by their keys.
    const std::string sql = "SELECT * FROM " + name +
                            (name == "meta"           ? " WHERE key NOT LIKE '%_utc' ORDER BY key"
                             : name == "event_chunks" ? " ORDER BY table_name, chunk"
                                                      : " ORDER BY rowid");
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr), SQLITE_OK) << table;
    out += std::string("# ") + table + "\n";
    while (sqlite3_step(statement) == SQLITE_ROW) {
      for (int column = 0; column < sqlite3_column_count(statement); ++column) {
        const auto* bytes = static_cast<const char*>(sqlite3_column_blob(statement, column));
        out.append(bytes ? bytes : "NULL", bytes ? static_cast<std::size_t>(sqlite3_column_bytes(statement, column))
                                                 : 4);
        out += '|';
      }
      out += '\n';
    }
    sqlite3_finalize(statement);
  }
  sqlite3_close(db);
  return out;
}

// Enough rows for several batches, chunks and transactions, with every kind of write interleaved.
void write_sample(TraceWriter& writer) {
  writer.set_meta("rank", "3");
  writer.add(DeviceRow{.id = 0, .name = "GPU"});
  for (int i = 0; i < 150'000; ++i) {
    const auto name = writer.intern("kernel_" + std::to_string(i % 50));
    writer.add(KernelRow{.device = i % 2, .stream = i % 3, .start_ns = 10 * i, .end_ns = 10 * i + 5, .name = name});
    if (i % 3 == 0) {
      writer.add(ApiCallRow{.start_ns = 10 * i - 2, .end_ns = 10 * i - 1, .correlation_id = i, .name = name});
    }
    if (i % 1000 == 0) writer.set_stat({.name = "progress", .value = i});
    if (i % 7000 == 0) writer.add(MemcpyRow{.device = 0, .start_ns = i, .end_ns = i + 1, .bytes = i});
  }
  writer.add(CollectiveRow{.device = 0, .correlation_id = 3, .name = writer.intern("allreduce")});
}

TEST(BackgroundWrites, TheFileEqualsTheOneWrittenInTheCallersThread) {
  testing::TemporaryFolder folder;
  for (const bool background : {false, true}) {
    TraceWriter writer({.path = folder.file(background ? "background.sqlite" : "caller.sqlite"),
                        .rows_per_transaction = 20'000,
                        .background_writes = background});
    write_sample(writer);
    EXPECT_EQ(writer.rows_written(), 1U + 150'000U + 50'000U + 22U + 1U);  // device, kernels, calls, copies, collective
    writer.finish();
  }
  const auto caller = dump(folder.file("caller.sqlite"));
  EXPECT_GT(caller.size(), 1'000'000U);
  EXPECT_TRUE(caller == dump(folder.file("background.sqlite")));  // not EXPECT_EQ: megabytes of text
}

TEST(BackgroundWrites, AFailedWriteIsThrownInTheCallerAndLaterWritesAreNotApplied) {
  std::atomic<int> applied{0};
  BackgroundWrites writes([&applied](const WriteOp&) {
    if (++applied == 5000) throw std::runtime_error("disk full");
  });
  bool thrown = false;
  try {
    for (int i = 0; i < 100'000; ++i) writes.add(CommitPoint{});
    writes.wait_applied();
  } catch (const std::runtime_error& error) {
    thrown = true;
    EXPECT_STREQ(error.what(), "disk full");
  }
  EXPECT_TRUE(thrown);
  EXPECT_EQ(applied.load(), 5000);  // the rest of the failed batch and every later one dropped
  EXPECT_THROW(writes.wait_applied(), std::runtime_error);  // and it stays failed
}

// Dropping the writes with batches queued neither hangs nor applies them: at
// most the batch already being applied finishes.
TEST(BackgroundWrites, DestroyingWithQueuedBatchesDropsThem) {
  std::atomic<int> applied{0};
  {
    BackgroundWrites writes([&applied](const WriteOp&) {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
      ++applied;
    });
    for (std::size_t i = 0; i < 3 * BackgroundWrites::kOpsPerBatch; ++i) writes.add(CommitPoint{});
  }
  EXPECT_LE(applied.load(), static_cast<int>(BackgroundWrites::kOpsPerBatch));
}

// An importer that fails mid-file drops its writer unfinished: no output file, no hang.
TEST(BackgroundWrites, AnUnfinishedAtomicWriterLeavesNothing) {
  testing::TemporaryFolder folder;
  {
    TraceWriter writer({.path = folder.file("out.sqlite"), .background_writes = true});
    write_sample(writer);
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder.path()), std::filesystem::directory_iterator()),
            0);
}

}  // namespace
}  // namespace gpuprof::trace
