// The column chunks of a trace file (schema 1.2) load the same model as its
// rows; chunks that are corrupt, incomplete or absent make the loader read
// the rows instead, counting a problem where chunks were there but unusable.
// Any SQL edit of the rows drops the chunks (the chunk guards).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <limits>

#include "gpuprof/trace/chunk_guards.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/schema_version.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::trace {
namespace {

void run_sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

std::int64_t query_int(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_stmt* statement = nullptr;
  sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr);
  const std::int64_t value = sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : -1;
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return value;
}

// How many of the chunk guards a file holds exactly as we create them.
std::size_t guards_in(const std::string& path) {
  std::size_t found = 0;
  for (const auto& guard : chunk_guard_triggers()) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* statement = nullptr;
    sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ? AND sql = ?", -1,
                       &statement, nullptr);
    sqlite3_bind_text(statement, 1, guard.name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(statement, 2, guard.sql.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(statement) == SQLITE_ROW) found += static_cast<std::size_t>(sqlite3_column_int64(statement, 0));
    sqlite3_finalize(statement);
    sqlite3_close(db);
  }
  return found;
}

// Flips one bit of a chunk's blob, as a damaged disk or a hostile editor would.
void flip_bit(const std::string& path, const std::string& table, int chunk, std::size_t byte) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  const std::string where = " WHERE table_name = '" + table + "' AND chunk = " + std::to_string(chunk);
  sqlite3_stmt* read = nullptr;
  sqlite3_prepare_v2(db, ("SELECT data FROM event_chunks" + where).c_str(), -1, &read, nullptr);
  ASSERT_EQ(sqlite3_step(read), SQLITE_ROW);
  const auto* bytes = static_cast<const std::uint8_t*>(sqlite3_column_blob(read, 0));
  std::vector<std::uint8_t> blob(bytes, bytes + sqlite3_column_bytes(read, 0));
  sqlite3_finalize(read);
  ASSERT_LT(byte, blob.size());
  blob[byte] ^= 0x10;
  sqlite3_stmt* write = nullptr;
  sqlite3_prepare_v2(db, ("UPDATE event_chunks SET data = ?" + where).c_str(), -1, &write, nullptr);
  sqlite3_bind_blob(write, 1, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
  ASSERT_EQ(sqlite3_step(write), SQLITE_DONE);
  sqlite3_finalize(write);
  sqlite3_close(db);
}

constexpr int kKernels = 150'000;  // three chunks, the last one partial

// Every column kind: NULLs, unknown strings, extreme integers, rows out of
// order across devices and streams, and rows the rules leave out.
void write_trace(const std::string& path) {
  TraceWriter writer({.path = path, .tool_version = "test"});
  const auto gemm = writer.intern("gemm"), mangled = writer.intern("_Z4gemmv"), launch = writer.intern("launch");
  for (int i = 0; i < kKernels; ++i) {
    KernelRow k{.device = i % 3, .start_ns = 1'000'000 - i * 5 + (i % 7) * 100, .name = gemm};
    k.end_ns = k.start_ns + 10 + i % 11;
    if (i % 4 != 0) k.stream = 7 + i % 5;
    if (i % 3 == 0) k.context = std::numeric_limits<std::int64_t>::min() + 1;
    if (i % 5 == 0) k.correlation_id = i;
    if (i % 2 == 0) k.grid = Dim3{i % 100 + 1, 2, 1}, k.block = Dim3{128, 1, 1};
    if (i % 6 == 0) k.registers_per_thread = 32, k.static_shared_bytes = 0, k.dynamic_shared_bytes = 1 << 20;
    if (i % 9 == 0) k.graph_node_id = std::numeric_limits<std::int64_t>::max() - i;
    if (i % 8 == 0) k.mangled_name = mangled;
    if (i == 1234) k.end_ns = k.start_ns - 1;       // left out: ends before it starts
    if (i == 4321) k.name = 999'999;                 // left out: names no string
    writer.add(k);
  }
  for (int i = 0; i < 700; ++i) {
    writer.add(MemcpyRow{.device = i % 2, .stream = 3, .start_ns = 5000 + i, .end_ns = 5001 + i,
                         .copy_kind = static_cast<CopyKind>(i % 6),
                         .src_memory_kind = i % 3 == 0 ? std::nullopt : std::optional(MemoryKind::pinned),
                         .dst_device = i % 4 == 0 ? std::optional(1) : std::nullopt, .bytes = i * 4096});
    writer.add(MemsetRow{.device = 0, .start_ns = 9000 - i, .end_ns = 9100 - i,
                         .bytes = i % 2 ? std::optional(i) : std::nullopt});
    writer.add(ApiCallRow{.process_id = 1, .thread_id = i % 4, .start_ns = 100 + (i * 37) % 700, .end_ns = 900,
                          .correlation_id = i, .name = launch, .kind = i % 2 ? ApiKind::driver : ApiKind::runtime,
                          .return_code = i % 10 == 0 ? std::optional(700) : std::nullopt});
    writer.add(SyncRow{.start_ns = 50 + i, .end_ns = 60 + i, .type = static_cast<SyncType>(i % 6),
                       .device = i % 2 ? std::optional(0) : std::nullopt, .stream = 3});
    writer.add(RangeRow{.start_ns = 10 + i, .end_ns = 20 + i, .name = launch,
                        .domain = i % 2 ? std::optional(gemm) : std::nullopt, .on_gpu = i % 2 == 0});
  }
  writer.finish();
}

// Every column of every table, as bytes, with the stream slices and problems.
std::vector<std::string> fingerprint(TraceModel model) {
  std::vector<std::string> out;
  const auto add_table = [&out](auto& table) {
    table.visit_columns([&out](auto& column) {
      if constexpr (kIsRunColumn<std::decay_t<decltype(column)>>) {
        for (std::size_t run = 0; run < column.runs(); ++run) {
          out.push_back(std::to_string(column.run_value(run)) + " to " + std::to_string(column.run_end(run)));
        }
      } else {
        out.emplace_back(reinterpret_cast<const char*>(column.data()), column.size() * sizeof(column[0]));
      }
    });
  };
  add_table(model.kernels), add_table(model.memcpys), add_table(model.memsets);
  add_table(model.api_calls), add_table(model.syncs), add_table(model.ranges);
  for (const auto* slices : {&model.kernel_streams, &model.memcpy_streams, &model.memset_streams}) {
    for (const auto& slice : *slices) {
      out.push_back(std::to_string(slice.device) + "/" + std::to_string(slice.stream) + ":" +
                    std::to_string(slice.begin) + "-" + std::to_string(slice.end));
    }
  }
  for (const auto& stat : model.stats) out.push_back(stat.name + "=" + std::to_string(stat.value));
  return out;
}

bool has_stat(const TraceModel& model, const std::string& name) {
  for (const auto& stat : model.stats) {
    if (stat.name == name) return stat.severity == Severity::warning && stat.value == 1;
  }
  return false;
}

class EventChunks : public ::testing::Test {
 protected:
  void SetUp() override {
    write_trace(chunked);
    std::filesystem::copy_file(chunked, rows_only);
    run_sql(rows_only, "DELETE FROM event_chunks");
    expected = fingerprint(load_trace_model(rows_only));
  }
  testing::TemporaryFolder folder;
  std::string chunked = folder.file("chunked.sqlite"), rows_only = folder.file("rows.sqlite");
  std::vector<std::string> expected;
};

TEST_F(EventChunks, TheWriterWritesChunksOfEveryEventTable) {
  EXPECT_EQ(query_int(chunked, "SELECT count(*) FROM event_chunks WHERE table_name = 'kernels'"), 3);
  EXPECT_EQ(query_int(chunked, "SELECT sum(row_count) FROM event_chunks WHERE table_name = 'kernels'"), kKernels);
  EXPECT_EQ(query_int(chunked, "SELECT count(DISTINCT table_name) FROM event_chunks"), 6);
  EXPECT_EQ(query_int(chunked, "PRAGMA user_version"), kUserVersion);
}

TEST_F(EventChunks, ChunksAndRowsLoadIdenticalModels) {
  const auto model = load_trace_model(chunked);
  EXPECT_EQ(fingerprint(model), expected);
  EXPECT_EQ(model.kernels.size(), static_cast<std::size_t>(kKernels - 2));
  for (const auto& stat : model.stats) EXPECT_NE(stat.name.rfind("load.chunks.", 0), 0U) << stat.name;
}

TEST_F(EventChunks, ChunksAndRowsLoadIdenticalModelsWithoutLaunchDetails) {
  const LoadOptions options{.load_kernel_launch_details = false};
  EXPECT_EQ(fingerprint(load_trace_model(chunked, options)), fingerprint(load_trace_model(rows_only, options)));
}

// The report leaves out the columns no analysis reads; everything else is loaded as before.
TEST_F(EventChunks, LeavingOutContextsAndReturnCodesLeavesEveryOtherColumnAsLoaded) {
  for (const auto& path : {chunked, rows_only}) {
    auto full = load_trace_model(path);
    const auto partial = load_trace_model(path, {.load_contexts_and_return_codes = false});
    EXPECT_TRUE(partial.kernels.context.empty() && partial.memcpys.context.empty() && partial.memsets.context.empty());
    EXPECT_TRUE(partial.api_calls.return_code.empty());
    ASSERT_FALSE(full.kernels.context.empty() || full.api_calls.return_code.empty());
    full.kernels.context.clear(), full.memcpys.context.clear(), full.memsets.context.clear();
    full.api_calls.return_code.clear();
    EXPECT_TRUE(fingerprint(full) == fingerprint(partial)) << path;
  }
}

// The rows are out of order across devices and streams in the file; loaded,
// each stream's rows stand together, so device and stream take one entry per
// stream, and the API calls' process one entry.
TEST_F(EventChunks, DeviceStreamAndProcessAreStoredOncePerRun) {
  for (const auto& path : {chunked, rows_only}) {
    const auto model = load_trace_model(path);
    ASSERT_GT(model.kernel_streams.size(), 1U);
    EXPECT_EQ(model.kernels.device.runs(), 3U) << path;
    EXPECT_LE(model.kernels.stream.runs(), model.kernel_streams.size()) << path;
    for (const auto& slice : model.kernel_streams) {
      for (auto row = slice.begin; row < slice.end; ++row) {
        ASSERT_EQ(model.kernels.device[row], slice.device) << row;
        ASSERT_EQ(model.kernels.stream[row], slice.stream) << row;
      }
    }
    EXPECT_EQ(model.api_calls.process_id.runs(), 1U) << path;
    EXPECT_EQ(model.api_calls.process_id.size(), model.api_calls.size()) << path;
  }
}

TEST_F(EventChunks, ATruncatedChunkFallsBackToRowsWithAProblemCounted) {
  run_sql(chunked, "UPDATE event_chunks SET data = substr(data, 1, length(data) - 3) "
                   "WHERE table_name = 'kernels' AND chunk = 1");
  const auto model = load_trace_model(chunked);
  EXPECT_TRUE(has_stat(model, "load.chunks.kernels"));
  auto fallback = fingerprint(model);
  fallback.pop_back();  // the problem itself
  EXPECT_EQ(fallback, expected);
}

TEST_F(EventChunks, AFlippedBitFallsBackToRowsWithAProblemCounted) {
  flip_bit(chunked, "memcpys", 0, 40);
  const auto model = load_trace_model(chunked);
  EXPECT_TRUE(has_stat(model, "load.chunks.memcpys"));
  EXPECT_EQ(model.memcpys.size(), 700U);
}

TEST_F(EventChunks, WrongCountsFallBackToRowsWithAProblemCounted) {
  for (const std::string edit :
       {"UPDATE event_chunks SET row_count = row_count - 1 WHERE table_name = 'kernels' AND chunk = 2",
        "UPDATE event_chunks SET row_count = 70000 WHERE table_name = 'kernels' AND chunk = 2",
        "DELETE FROM event_chunks WHERE table_name = 'kernels' AND chunk = 1",
        "DELETE FROM event_chunks WHERE table_name = 'kernels' AND chunk = 2",
        "UPDATE event_chunks SET first_row = 1 WHERE table_name = 'kernels' AND chunk = 0",
        "UPDATE event_chunks SET columns = 99 WHERE table_name = 'kernels' AND chunk = 0",
        "UPDATE event_chunks SET data = 'text' WHERE table_name = 'kernels' AND chunk = 0",
        "UPDATE event_chunks SET row_count = 'many' WHERE table_name = 'kernels' AND chunk = 0"}) {
    const auto edited = folder.file("edited.sqlite");
    std::filesystem::copy_file(chunked, edited, std::filesystem::copy_options::overwrite_existing);
    run_sql(edited, edit);
    const auto model = load_trace_model(edited);
    EXPECT_TRUE(has_stat(model, "load.chunks.kernels")) << edit;
    auto fallback = fingerprint(model);
    fallback.pop_back();
    EXPECT_EQ(fallback, expected) << edit;
  }
}

// The rows are the truth: any SQL edit of them after finish() (here by a plain
// SQLite connection, as the sqlite3 shell would) fires a chunk guard, and the
// model loaded from the file is the model of its edited rows, with no problem
// counted (a file without chunks is normal).
TEST_F(EventChunks, SqlEditsOfTheRowsDropTheChunks) {
  for (const std::string edit :
       {"DELETE FROM kernels WHERE start_ns < 900000", "DELETE FROM kernels WHERE rowid = 100000",
        "UPDATE kernels SET end_ns = end_ns + 7 WHERE rowid % 3 = 0",
        "UPDATE api_calls SET start_ns = start_ns - 1", "DELETE FROM ranges WHERE on_gpu = 1",
        "INSERT INTO kernels SELECT * FROM kernels LIMIT 1", "INSERT INTO memsets SELECT * FROM memsets LIMIT 2"}) {
    const auto edited = folder.file("edited.sqlite"), edited_rows = folder.file("edited_rows.sqlite");
    std::filesystem::copy_file(chunked, edited, std::filesystem::copy_options::overwrite_existing);
    std::filesystem::copy_file(rows_only, edited_rows, std::filesystem::copy_options::overwrite_existing);
    run_sql(edited, edit);
    run_sql(edited_rows, edit);
    EXPECT_EQ(query_int(edited, "SELECT count(*) FROM event_chunks"), 0) << edit;
    const auto model = fingerprint(load_trace_model(edited));
    // EXPECT_TRUE, not EXPECT_EQ: printing megabytes of column bytes on a failure exhausts memory.
    EXPECT_TRUE(model == fingerprint(load_trace_model(edited_rows))) << edit;
    EXPECT_FALSE(model == expected) << edit << " changed nothing";
    for (const auto& entry : model) EXPECT_NE(entry.rfind("load.chunks.", 0), 0U) << edit << ": " << entry;
  }
}

// Code that edits rows itself (the importers' late time shifts) runs no
// triggers and rewrites the chunks: they then equal the edited rows, and the
// guards are still there for the next edit.
TEST_F(EventChunks, RewrittenChunksEqualTheEditedRowsAndKeepTheGuards) {
  const std::string shift = "UPDATE kernels SET start_ns = start_ns + 5, end_ns = end_ns + 5;";
  {
    sqlite::Database database(chunked, sqlite::OpenMode::read_write);
    database.execute("BEGIN;" + shift);
    rewrite_event_chunks(database);
    database.execute("COMMIT");
  }
  run_sql(rows_only, shift);
  EXPECT_EQ(query_int(chunked, "SELECT count(*) FROM event_chunks WHERE table_name = 'kernels'"), 3);
  const auto model = load_trace_model(chunked);
  EXPECT_TRUE(fingerprint(model) == fingerprint(load_trace_model(rows_only)));
  EXPECT_FALSE(fingerprint(model) == expected);
  for (const auto& stat : model.stats) EXPECT_NE(stat.name.rfind("load.chunks.", 0), 0U) << stat.name;
  EXPECT_EQ(guards_in(chunked), chunk_guard_triggers().size());
  run_sql(chunked, "DELETE FROM syncs WHERE rowid = 1");
  EXPECT_EQ(query_int(chunked, "SELECT count(*) FROM event_chunks"), 0);
}

TEST_F(EventChunks, TheWriterInstallsEveryChunkGuard) {
  EXPECT_EQ(guards_in(chunked), chunk_guard_triggers().size());
  EXPECT_EQ(chunk_guard_triggers().size(), 18U);  // insert, update and delete on each of six tables
  EXPECT_EQ(query_int(chunked, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"), 18);
}

// The writer encodes chunks as rows arrive; they must be byte for byte the
// chunks that reading the finished table back would make.
TEST_F(EventChunks, ChunksWrittenAsRowsArriveEqualChunksReadBackFromTheRows) {
  const auto reread = folder.file("reread.sqlite");
  std::filesystem::copy_file(chunked, reread);
  {
    sqlite::Database database(reread, sqlite::OpenMode::read_write);
    database.execute("BEGIN");
    rewrite_event_chunks(database);
    database.execute("COMMIT");
  }
  // Counted in the reread file, so that a wrong count in either file fails.
  run_sql(reread, "ATTACH '" + chunked + "' AS streamed; CREATE TABLE same AS SELECT count(*) AS n "
                  "FROM main.event_chunks x JOIN streamed.event_chunks y USING (table_name, chunk) "
                  "WHERE x.first_row = y.first_row AND x.row_count = y.row_count AND x.columns = y.columns "
                  "AND x.data = y.data");
  EXPECT_EQ(query_int(reread, "SELECT n FROM same"), query_int(chunked, "SELECT count(*) FROM event_chunks"));
  EXPECT_EQ(query_int(reread, "SELECT count(*) FROM event_chunks"), query_int(reread, "SELECT n FROM same"));
  EXPECT_EQ(query_int(chunked, "SELECT count(*) FROM event_chunks"), 8);  // 3 kernel chunks, 1 per other table
}

// A collector killed before finish() leaves chunks of the rows it committed
// but no guards, so a later SQL edit of the rows leaves the chunks stale: the
// loader must read the rows of any file without its guards.
TEST_F(EventChunks, ChunksOfAnUnfinishedFileAreNotUsed) {
  const auto unfinished = folder.file("unfinished.sqlite");
  {
    TraceWriter writer({.path = unfinished, .durability = Durability::crash_safe, .tool_version = "test"});
    const auto name = writer.intern("gemm");
    for (int i = 0; i < 2 * 65536; ++i) {
      writer.add(KernelRow{.stream = 1, .start_ns = i, .end_ns = i + 1, .name = name});
    }
    writer.flush();
  }  // destroyed unfinished, as by a crash after the flush
  ASSERT_EQ(query_int(unfinished, "SELECT sum(row_count) FROM event_chunks WHERE table_name = 'kernels'"), 2 * 65536);
  ASSERT_EQ(guards_in(unfinished), 0U);
  run_sql(unfinished, "UPDATE kernels SET end_ns = end_ns + 7 WHERE rowid = 5");
  const auto model = load_trace_model(unfinished);
  ASSERT_EQ(model.kernels.size(), 2U * 65536);
  EXPECT_EQ(model.kernels.end_ns[4], 4 + 1 + 7);
  for (const auto& stat : model.stats) EXPECT_NE(stat.name.rfind("load.chunks.", 0), 0U) << stat.name;
}

// A file of schema 1.1 has neither chunks nor guards.
TEST_F(EventChunks, AnOlderMinorVersionWithoutChunksStillLoads) {
  std::string downgrade = "DROP TABLE event_chunks; PRAGMA user_version = 1001;";
  for (const auto& guard : chunk_guard_triggers()) downgrade += "DROP TRIGGER " + guard.name + ";";
  run_sql(chunked, downgrade);
  ASSERT_EQ(query_int(chunked, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"), 0);
  const auto model = load_trace_model(chunked);
  EXPECT_EQ(fingerprint(model), expected);
}

}  // namespace
}  // namespace gpuprof::trace
