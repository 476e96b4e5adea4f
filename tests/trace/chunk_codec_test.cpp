// The column-chunk codec on its own: values survive encoding, and hostile blobs
// (truncated, flipped, with counts that do not add up, even with a valid
// checksum) are refused with a reason, never read out of bounds.
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "event_chunks.hpp"

namespace gpuprof::trace {
namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

// Column 0: extremes of either sign (deltas wrap); column 1: every other row NULL;
// column 2: always NULL; column 3: small, out of order.
std::vector<std::uint8_t> encode_sample(int rows, ChunkEncoder& encoder) {
  RowValues row;
  row.resize(4);
  for (int i = 0; i < rows; ++i) {
    row.set(0, false, i % 3 == 0 ? kMin : (i % 3 == 1 ? kMax : -i));
    row.set(1, i % 2 == 0, i * 1000);
    row.set(2, true, 0);
    row.set(3, false, (i * 7919) % 13 - 6);
    EXPECT_TRUE(encoder.add(row));
  }
  return encoder.take_blob();
}

TEST(ChunkCodec, ValuesAndNullsSurviveEncoding) {
  ChunkEncoder encoder(4);
  const auto blob = encode_sample(1000, encoder);
  ChunkDecoder decoder;
  ASSERT_EQ(decoder.decode(blob, 1000, 4, 4), "");
  for (int i = 0; i < 1000; ++i) {
    const ChunkRow row(decoder, static_cast<std::size_t>(i));
    EXPECT_EQ(row.i64(0), i % 3 == 0 ? kMin : (i % 3 == 1 ? kMax : -i));
    EXPECT_EQ(row.is_null(1), i % 2 == 0);
    if (i % 2 != 0) {
      EXPECT_EQ(row.i64(1), i * 1000);
    }
    EXPECT_TRUE(row.is_null(2));
    EXPECT_EQ(row.i64(3), (i * 7919) % 13 - 6);
  }
}

TEST(ChunkCodec, ColumnsBeyondTheStoredOnesReadAsNullAndExtraOnesAreSkipped) {
  ChunkEncoder encoder(4);
  const auto blob = encode_sample(10, encoder);
  ChunkDecoder decoder;
  ASSERT_EQ(decoder.decode(blob, 10, 4, 6), "");
  const ChunkRow row(decoder, 3);
  EXPECT_FALSE(row.is_null(3));
  EXPECT_TRUE(row.is_null(4));
  EXPECT_TRUE(row.is_null(5));
  ASSERT_EQ(decoder.decode(blob, 10, 4, 1), "");
  EXPECT_EQ(ChunkRow(decoder, 2).i64(0), -2);
}

TEST(ChunkCodec, ValuesThatAreNotIntegersAreRefusedByTheEncoder) {
  ChunkEncoder encoder(1);
  RowValues row;
  row.resize(1);
  row.set(0, false, 1);
  EXPECT_TRUE(encoder.add(row));
  // A text value cannot be set through the chunk interface; an unknown type code stands for it.
  RowValues text_row;  // type 0 in every column: neither NULL nor integer
  text_row.resize(1);
  EXPECT_FALSE(encoder.add(text_row));
  EXPECT_EQ(encoder.rows(), 1);
}

TEST(ChunkCodec, WrongCountsAreRefused) {
  ChunkEncoder encoder(4);
  const auto blob = encode_sample(100, encoder);
  ChunkDecoder decoder;
  EXPECT_NE(decoder.decode(blob, 101, 4, 4), "");
  EXPECT_NE(decoder.decode(blob, 99, 4, 4), "");
  EXPECT_NE(decoder.decode(blob, 0, 4, 4), "");
  EXPECT_NE(decoder.decode(blob, kChunkRows + 1, 4, 4), "");
  EXPECT_NE(decoder.decode(blob, 100, 5, 4), "");
  EXPECT_NE(decoder.decode(blob, 100, 3, 4), "");
  EXPECT_NE(decoder.decode(blob, 100, 0, 4), "");
  EXPECT_EQ(decoder.rows(), 0);
}

TEST(ChunkCodec, EveryTruncationIsRefusedEvenWithAValidChecksum) {
  ChunkEncoder encoder(4);
  const auto blob = encode_sample(64, encoder);
  ChunkDecoder decoder;
  for (std::size_t size = 0; size < blob.size(); ++size) {
    std::vector<std::uint8_t> cut(blob.begin(), blob.begin() + static_cast<std::ptrdiff_t>(size));
    EXPECT_NE(decoder.decode(cut, 64, 4, 4), "") << size;
    seal_chunk(cut);
    EXPECT_NE(decoder.decode(cut, 64, 4, 4), "") << size;
  }
}

TEST(ChunkCodec, FlippedBitsAreCaughtByTheChecksumAndResealedOnesNeverReadOutOfBounds) {
  ChunkEncoder encoder(4);
  const auto blob = encode_sample(64, encoder);
  ChunkDecoder decoder;
  std::mt19937 random(19);
  for (int trial = 0; trial < 2000; ++trial) {
    auto flipped = blob;
    const auto bit = random() % (flipped.size() * 8);
    flipped[bit / 8] ^= static_cast<std::uint8_t>(1u << (bit % 8));
    EXPECT_NE(decoder.decode(flipped, 64, 4, 4), "") << bit;
    // Resealed, a flip may decode (to other values) or not, but stays in bounds (ASan builds check).
    seal_chunk(flipped);
    if (decoder.decode(flipped, 64, 4, 4).empty()) {
      std::int64_t read = 0;
      for (std::size_t i = 0; i < 64; ++i) {
        const ChunkRow row(decoder, i);
        for (int column = 0; column < 4; ++column) read += row.is_null(column) ? 0 : row.i64(column);
      }
      (void)read;
    }
  }
}

// The decoder reads runs of one-byte deltas eight at a time and two- and
// three-byte ones unrolled: values of every varint length, in runs of every
// length and at every position, decode to what was encoded.
TEST(ChunkCodec, DeltasOfEveryLengthDecodeWhereverTheyStand) {
  std::mt19937_64 random(38);
  for (int trial = 0; trial < 200; ++trial) {
    const int rows = 1 + static_cast<int>(random() % 3000);
    ChunkEncoder encoder(1);
    std::vector<std::int64_t> values;
    std::int64_t value = static_cast<std::int64_t>(random());
    while (static_cast<int>(values.size()) < rows) {
      // A run of deltas of one size: 0 (a constant), or up to 7, 14, ..., 63 bits, either sign.
      const int bits = static_cast<int>(random() % 10) * 7;
      const int run = 1 + static_cast<int>(random() % 20);
      for (int i = 0; i < run && static_cast<int>(values.size()) < rows; ++i) {
        const auto magnitude = bits == 0 ? 0 : random() >> (64 - bits);
        value = static_cast<std::int64_t>(static_cast<std::uint64_t>(value) +
                                          (random() % 2 == 0 ? magnitude : ~magnitude + 1) / 2);
        values.push_back(value);
        encoder.put(0, false, value);
        encoder.end_row();
      }
    }
    const auto blob = encoder.take_blob();
    ChunkDecoder decoder;
    ASSERT_EQ(decoder.decode(blob, rows, 1, 1), "") << trial;
    for (int i = 0; i < rows; ++i) ASSERT_EQ(ChunkRow(decoder, static_cast<std::size_t>(i)).i64(0), values[i]) << trial << " " << i;
    // One byte fewer (resealed) is refused wherever the column ends.
    auto cut = blob;
    cut.pop_back();
    seal_chunk(cut);
    EXPECT_NE(decoder.decode(cut, rows, 1, 1), "") << trial;
  }
}

// A varint longer than ten bytes, or whose tenth byte carries more than the
// 64th bit, is refused wherever it stands among one-byte varints.
TEST(ChunkCodec, OverlongVarintsAreRefusedAmongShortOnes) {
  for (const std::uint8_t tenth : {std::uint8_t{2}, std::uint8_t{0x81}}) {
    for (int at = 0; at < 20; ++at) {
      constexpr int kRows = 24;
      std::vector<std::uint8_t> values;
      for (int row = 0; row < kRows; ++row) {
        if (row == at) {
          values.insert(values.end(), 9, 0x80);
          values.push_back(tenth);
          if (tenth & 0x80) values.push_back(0);
        } else {
          values.push_back(2);
        }
      }
      std::vector<std::uint8_t> blob(8, 0);
      blob.push_back(static_cast<std::uint8_t>(1 + values.size()));  // section length (< 128)
      blob.push_back(0);                                              // no NULL
      blob.insert(blob.end(), values.begin(), values.end());
      seal_chunk(blob);
      ChunkDecoder decoder;
      EXPECT_NE(decoder.decode(blob, kRows, 1, 1), "") << at << " " << int{tenth};
    }
  }
}

TEST(ChunkCodec, AHugeNullCountOrBitmapMismatchIsRefused) {
  // One column, 16 rows: section [null count 3][bitmap with 2 bits set][13 values of 0].
  std::vector<std::uint8_t> blob(8, 0);
  std::vector<std::uint8_t> section = {3, 0b00000011, 0};
  section.insert(section.end(), 13, 0);
  blob.push_back(static_cast<std::uint8_t>(section.size()));
  blob.insert(blob.end(), section.begin(), section.end());
  seal_chunk(blob);
  ChunkDecoder decoder;
  EXPECT_NE(decoder.decode(blob, 16, 1, 1), "");
  // A NULL count past the rows, as a ten-byte varint.
  std::vector<std::uint8_t> huge(8, 0);
  const std::vector<std::uint8_t> big_count = {10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  huge.insert(huge.end(), big_count.begin(), big_count.end());
  seal_chunk(huge);
  EXPECT_NE(decoder.decode(huge, 16, 1, 1), "");
}

}  // namespace
}  // namespace gpuprof::trace
