// The chunk check (chunk_check.hpp): the row count bounded by what the file can
// hold, the content by a sample of every chunk's rows compared column by column
// with SQL's.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>

#include "chunk_check.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::trace {
namespace {

TEST(ChunkCheck, SampledRowsAreTheFirstTheLastAndOneInEachStretchBetween) {
  for (const std::int64_t rows : {1, 2, 3, 7, 10, 1000, 65535, 65536}) {
    for (const std::uint64_t seed : {0ULL, 1ULL, 0xdeadbeefULL, ~0ULL}) {
      const auto sampled = sampled_rows(rows, seed);
      ASSERT_FALSE(sampled.empty());
      EXPECT_EQ(sampled.front(), 0);
      EXPECT_EQ(sampled.back(), rows - 1);
      EXPECT_TRUE(std::is_sorted(sampled.begin(), sampled.end()));
      EXPECT_EQ(std::adjacent_find(sampled.begin(), sampled.end()), sampled.end()) << "distinct";
      EXPECT_LE(static_cast<std::int64_t>(sampled.size()), std::min(rows, kSampledRows));
      if (rows >= 1000) {
        EXPECT_EQ(static_cast<std::int64_t>(sampled.size()), kSampledRows) << rows;
      }
    }
  }
  EXPECT_NE(sampled_rows(65536, 1), sampled_rows(65536, 2)) << "the places depend on the chunk";
}

void edit_without_triggers(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

// A trace of 2 full chunks of kernels and 10 rows more, on stream 1.
std::string two_chunk_trace(testing::TemporaryFolder& folder) {
  const auto path = folder.file("trace.sqlite");
  TraceWriter writer({.path = path, .tool_version = "test"});
  const auto name = writer.intern("gemm");
  for (int i = 0; i < 2 * 65536 + 10; ++i) writer.add(KernelRow{.stream = 1, .start_ns = i, .end_ns = i + 1, .name = name});
  writer.finish();
  return path;
}

bool chunks_refused(const TraceModel& model) {
  return std::any_of(model.stats.begin(), model.stats.end(),
                     [](const StatRow& stat) { return stat.name == "load.chunks.kernels"; });
}

TEST(ChunkCheck, RowsAFileOfSomeSizeCanHoldAreBoundedByTheirColumns) {
  EXPECT_EQ(rows_pages_can_hold(23 * 1000, 18), 1000);
  EXPECT_EQ(rows_pages_can_hold(16384, 0), 16384 / 5);
  EXPECT_EQ(rows_pages_can_hold(-1, 18), 0);
}

// The rows are no longer counted (a scan of the whole table): a row deleted
// behind the chunk guards' back is seen where it is sampled.
TEST(ChunkCheck, ARowMissingAtASampledPlaceMakesTheLoaderReadTheRows) {
  testing::TemporaryFolder folder;
  const auto path = two_chunk_trace(folder);
  edit_without_triggers(path, "DELETE FROM kernels WHERE rowid = 65537");  // chunk 1's first row
  const auto model = load_trace_model(path);
  EXPECT_EQ(model.kernels.size(), 2U * 65536 + 9);
  EXPECT_TRUE(chunks_refused(model));
}

// A last row id far beyond the rows the file could hold, as a hostile writer
// would set to make chunks claim billions of rows.
TEST(ChunkCheck, ALastRowIdBeyondWhatTheFileCanHoldMakesTheLoaderReadTheRows) {
  testing::TemporaryFolder folder;
  const auto path = two_chunk_trace(folder);
  edit_without_triggers(path, "INSERT INTO kernels(rowid, device, stream, start_ns, end_ns, name_id) "
                              "SELECT 1000000000000, device, stream, start_ns, end_ns, name_id FROM kernels WHERE rowid = 1");
  const auto model = load_trace_model(path);
  EXPECT_EQ(model.kernels.size(), 2U * 65536 + 11);
  EXPECT_TRUE(chunks_refused(model));
}

TEST(ChunkCheck, AnUneditedFileIsLoadedFromItsChunks) {
  testing::TemporaryFolder folder;
  const auto model = load_trace_model(two_chunk_trace(folder));
  EXPECT_EQ(model.kernels.size(), 2U * 65536 + 10);
  EXPECT_FALSE(chunks_refused(model));
}

// The check of issue 27 summed start and end times only: a stream changed behind the chunk
// guards' back went unseen and the chunks' stream was analysed.
TEST(ChunkCheck, AnyColumnChangedAtASampledRowMakesTheLoaderReadTheRows) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("trace.sqlite");
  {
    TraceWriter writer({.path = path, .tool_version = "test"});
    const auto name = writer.intern("gemm");
    for (int i = 0; i < 2 * 65536 + 10; ++i) {
      writer.add(KernelRow{.stream = 1, .start_ns = i, .end_ns = i + 1, .name = name});
    }
    writer.finish();
  }
  EXPECT_EQ(load_trace_model(path).kernels.stream[65536], 1);
  edit_without_triggers(path, "UPDATE kernels SET stream = 99 WHERE rowid = 65537");  // chunk 1's first row
  const auto model = load_trace_model(path);
  ASSERT_EQ(model.kernels.size(), 2U * 65536 + 10);
  EXPECT_EQ(std::count(model.kernels.stream.begin(), model.kernels.stream.end(), 99), 1);
  const bool counted = std::any_of(model.stats.begin(), model.stats.end(),
                                   [](const StatRow& stat) { return stat.name == "load.chunks.kernels"; });
  EXPECT_TRUE(counted);
}

}  // namespace
}  // namespace gpuprof::trace
