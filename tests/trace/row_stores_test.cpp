// A decoded chunk stored a column at a time (ChunkRows) gives the model exactly
// what storing it one row at a time (OneRow) gives: the loader takes the first
// for every chunk whose rows all keep their rules, the second for SQL rows and
// for chunks with a broken row.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "event_chunks.hpp"
#include "row_stores.hpp"

namespace gpuprof::trace {
namespace {

// Columns: 0 device, 1 stream (some NULL), 2 value (some NULL), 3-5 a grid (the first sometimes NULL), 6 never NULL.
constexpr int kColumns = 7;

ChunkDecoder decoded_chunk(std::size_t rows, std::uint64_t seed, int stored = kColumns) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int> percent(0, 99);
  ChunkEncoder encoder(stored);
  std::int64_t device = 0, stream = 7;
  for (std::size_t row = 0; row < rows; ++row) {
    // Streams change every few hundred rows, as files hold them.
    if (percent(random) == 0) device = percent(random) % 3, stream = percent(random) % 4 == 0 ? -1 : percent(random);
    const std::int64_t values[kColumns] = {device, stream, static_cast<std::int64_t>(random()),
                                           percent(random) - 50, percent(random), percent(random), percent(random)};
    for (int column = 0; column < stored; ++column) {
      const bool null = (column == 1 && stream < 0) || (column == 2 && percent(random) < 30) ||
                        (column == 3 && percent(random) < 10);
      encoder.put(column, null, values[column]);
    }
    encoder.end_row();
  }
  ChunkDecoder decoder;
  const auto blob = encoder.take_blob();
  EXPECT_EQ(decoder.decode(blob, static_cast<std::int64_t>(rows), stored, kColumns), "");
  return decoder;
}

struct Stored {
  std::vector<std::int64_t> i64, unknown;
  std::vector<std::int32_t> i32;
  std::vector<StringId> names;
  std::vector<MemoryKind> codes;
  std::vector<Dim3> grid;
  RunColumn<std::int64_t> process;
  StreamsOfRows streams;
};

template <typename Rows>
void store(const Rows& rows, Stored& into) {
  rows.put(into.i64, 6, stored::i64);
  rows.put(into.unknown, 2, stored::i64_or_unknown);
  rows.put(into.i32, 3, stored::i32_or_unknown);
  rows.put(into.names, 1, stored::string_id_or_none);
  rows.put(into.codes, 3, stored::code<MemoryKind>);
  rows.put_dim3(into.grid, 3);
  rows.put(into.process, 0, stored::i64_or_unknown);
  rows.put_stream(into.streams, 0, 1);
}

void expect_same(const Stored& a, const Stored& b) {
  EXPECT_EQ(a.i64, b.i64);
  EXPECT_EQ(a.unknown, b.unknown);
  EXPECT_EQ(a.i32, b.i32);
  EXPECT_EQ(a.names, b.names);
  EXPECT_EQ(a.codes, b.codes);
  EXPECT_EQ(a.grid, b.grid);
  EXPECT_EQ(a.process, b.process);
  EXPECT_EQ(a.streams.keys, b.streams.keys);
  ASSERT_EQ(a.streams.runs.size(), b.streams.runs.size());
  for (std::size_t i = 0; i < a.streams.runs.size(); ++i) {
    EXPECT_EQ(a.streams.runs[i].key, b.streams.runs[i].key) << i;
    EXPECT_EQ(a.streams.runs[i].rows, b.streams.runs[i].rows) << i;
  }
}

TEST(RowStores, AWholeChunkStoresWhatItsRowsStoreOneByOne) {
  for (const std::size_t rows : {1UL, 2UL, 1000UL, 65536UL}) {
    for (const int stored : {kColumns, 3}) {  // 3: an older writer's chunk, the later columns NULL
      Stored whole, one_by_one;
      // Two chunks after each other, as a table's chunks come: runs continue across them.
      for (const std::uint64_t seed : {1, 2}) {
        const auto decoder = decoded_chunk(rows, seed * rows, stored);
        store(ChunkRows(decoder), whole);
        for (std::size_t at = 0; at < rows; ++at) {
          const ChunkRow row(decoder, at);
          store(OneRow(row), one_by_one);
        }
      }
      ASSERT_EQ(whole.i64.size(), 2 * rows);
      expect_same(whole, one_by_one);
    }
  }
}

TEST(RowStores, NullsReadAsEachColumnsUnknown) {
  const auto decoder = decoded_chunk(5000, 3);
  Stored whole;
  store(ChunkRows(decoder), whole);
  int nulls = 0;
  for (std::size_t at = 0; at < 5000; ++at) {
    if (!decoder.is_null(2, at)) continue;
    ++nulls;
    EXPECT_EQ(whole.unknown[at], kUnknown);
  }
  EXPECT_GT(nulls, 1000);
}

}  // namespace
}  // namespace gpuprof::trace
