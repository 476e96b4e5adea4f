#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpuprof/analysis/grouped_values.hpp"

namespace gpuprof::analysis {
namespace {

std::vector<std::int64_t> as_vector(std::span<std::int64_t> values) { return {values.begin(), values.end()}; }

TEST(GroupedValues, KeepsRowOrderWithinEachGroupAndLeavesOutRowsWithoutAKey) {
  const std::vector<std::size_t> keys{2, 0, kNoGroup, 2, 7, 0, 2};  // 7: past key_count, left out too
  const std::vector<std::int64_t> values{10, 11, 12, 13, 14, 15, 16};
  auto grouped = group_values(
      keys.size(), 3, [&](std::size_t row) { return keys[row]; }, [&](std::size_t row) { return values[row]; });
  ASSERT_EQ(grouped.groups(), 3u);
  EXPECT_EQ(as_vector(grouped.group(0)), (std::vector<std::int64_t>{11, 15}));
  EXPECT_TRUE(grouped.group(1).empty());
  EXPECT_EQ(as_vector(grouped.group(2)), (std::vector<std::int64_t>{10, 13, 16}));
  EXPECT_EQ(grouped.values.size(), 5u);
}

TEST(GroupedValues, NoRowsAndNoKeys) {
  auto none = group_values(0, 0, [](std::size_t) { return std::size_t{0}; }, [](std::size_t) { return 0; });
  EXPECT_EQ(none.groups(), 0u);
  EXPECT_TRUE(none.values.empty());
}

}  // namespace
}  // namespace gpuprof::analysis
