// The rules checked over a decoded chunk's whole columns (every_row_keeps) say
// that every row keeps them exactly when broken_rule, row by row, finds none
// broken: the loader skips the rows' own checks on that answer.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "event_chunks.hpp"
#include "row_rules.hpp"

namespace gpuprof::trace {
namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

// One column of every rule; the end (6) follows its start (5).
const std::vector<ColumnRule> kRules = {
    {0, "a", Rule::integer},          {1, "b", Rule::int32_or_null},  {2, "c", Rule::count},
    {3, "d", Rule::positive_or_null}, {4, "e", Rule::device},         {5, "start", Rule::time},
    {6, "end", Rule::end_time},       {7, "f", Rule::string_id},      {8, "g", Rule::string_id_or_null},
    {9, "h", Rule::enum_value, 0, 3}, {10, "i", Rule::enum_or_null, 1, 2}, {11, "j", Rule::count_or_null},
    {12, "k", Rule::device_or_null},  {13, "l", Rule::integer_or_null}};
constexpr int kColumns = 14;

// A value that keeps column `column`'s rule, given the row's start (column 5).
std::int64_t kept_value(int column, std::int64_t start, std::mt19937_64& random) {
  std::uniform_int_distribution<std::int64_t> any(kMin, kMax), small(0, 1000), id(0, 9);
  switch (column) {
    case 1: return std::uniform_int_distribution<std::int64_t>(std::numeric_limits<std::int32_t>::min(),
                                                               std::numeric_limits<std::int32_t>::max())(random);
    case 2: case 5: case 11: return small(random);
    case 3: return 1 + small(random);
    case 4: case 12: return small(random) % 8;
    case 6: return start + small(random);
    case 7: case 8: return 2 * id(random);  // the even ids are present
    case 9: return small(random) % 4;
    case 10: return 1 + small(random) % 2;
    default: return any(random);
  }
}

// A value that breaks column `column`'s rule (columns 0 and 13 have none).
std::int64_t broken_value(int column, std::int64_t start, std::mt19937_64& random) {
  switch (column) {
    case 1: return std::int64_t{std::numeric_limits<std::int32_t>::max()} + 1;
    case 2: case 5: case 11: return -1 - static_cast<std::int64_t>(random() % 5);
    case 3: return 0;
    case 4: case 12: return random() % 2 == 0 ? -1 : std::int64_t{1} << 40;
    case 6: return start - 1;
    case 7: case 8: return random() % 2 == 0 ? 3 : (random() % 2 == 0 ? 1000 : -5);
    case 9: return 4;
    case 10: return kMin;
    default: return 0;
  }
}

TEST(ChunkRules, WholeColumnChecksAgreeWithEveryRowsOwnCheck) {
  std::mt19937_64 random(38);
  std::vector<std::uint8_t> present(20, 0);
  for (std::size_t id = 0; id < present.size(); id += 2) present[id] = 1;
  const std::vector<std::uint8_t> no_strings;
  int kept_chunks = 0, broken_chunks = 0;
  for (int chunk = 0; chunk < 3000; ++chunk) {
    const int rows = 1 + static_cast<int>(random() % 200);
    std::vector<bool> nullable(kColumns);
    for (int column = 0; column < kColumns; ++column) nullable[column] = random() % 4 == 0;
    const int broken_column = random() % 3 == 0 ? static_cast<int>(random() % kColumns) : -1;
    const int broken_row = static_cast<int>(random() % static_cast<std::uint64_t>(rows));
    ChunkEncoder encoder(kColumns);
    RowValues row;
    row.resize(kColumns);
    for (int r = 0; r < rows; ++r) {
      const auto start = kept_value(5, 0, random);
      for (int column = 0; column < kColumns; ++column) {
        const bool null = nullable[column] && random() % 3 == 0;
        auto value = column == 5 ? start : kept_value(column, start, random);
        if (column == broken_column && r == broken_row) value = broken_value(column, start, random);
        row.set(column, null, value);
      }
      ASSERT_TRUE(encoder.add(row));
    }
    const auto blob = encoder.take_blob();
    ChunkDecoder decoder;
    ASSERT_EQ(decoder.decode(blob, rows, kColumns, kColumns), "");
    for (const std::vector<std::uint8_t>* strings : {&std::as_const(present), &no_strings}) {
      bool every_row = true;
      for (int r = 0; r < rows; ++r) {
        every_row = every_row && broken_rule(ChunkRow(decoder, static_cast<std::size_t>(r)), kRules, *strings) == nullptr;
      }
      EXPECT_EQ(every_row_keeps(decoder, kRules, *strings), every_row) << "chunk " << chunk;
      (every_row ? kept_chunks : broken_chunks) += 1;
    }
  }
  // Both answers were put to the test.
  EXPECT_GT(kept_chunks, 100);
  EXPECT_GT(broken_chunks, 100);
}

}  // namespace
}  // namespace gpuprof::trace
