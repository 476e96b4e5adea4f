// Columns stored once per run of equal values (run_column.hpp): what they read
// back equals the plain column they stand for, whatever is appended, cut or
// reordered.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "gpuprof/trace/run_column.hpp"
#include "gpuprof/trace/trace_sorting.hpp"

namespace gpuprof::trace {
namespace {

RunColumn<std::int64_t> column_of(const std::vector<std::int64_t>& values) {
  RunColumn<std::int64_t> column;
  for (const auto value : values) column.push_back(value);
  return column;
}

TEST(RunColumn, ReadsBackEveryRowAndKeepsOneEntryPerRun) {
  const std::vector<std::int64_t> values = {7, 7, 7, 3, 3, -1, 7, 7, 0};
  const auto column = column_of(values);
  EXPECT_EQ(column.size(), values.size());
  EXPECT_EQ(column.runs(), 5U);
  for (std::size_t row = 0; row < values.size(); ++row) EXPECT_EQ(column[row], values[row]) << row;
  EXPECT_EQ(column, values);
  EXPECT_EQ(std::vector<std::int64_t>(column.begin(), column.end()), values);
  EXPECT_EQ(column.front(), 7);
  EXPECT_EQ(column.back(), 0);
}

TEST(RunColumn, AppendingARunEqualsAppendingItsRows) {
  RunColumn<std::int32_t> appended, pushed;
  appended.append(4, 3), appended.append(4, 2), appended.append(9, 0), appended.append(1, 1);
  for (const int value : {4, 4, 4, 4, 4, 1}) pushed.push_back(value);
  EXPECT_EQ(appended, pushed);
  EXPECT_EQ(appended.runs(), 2U);
}

TEST(RunColumn, ResizingCutsInsideARunAtItsEndOrToNothing) {
  const std::vector<std::int64_t> values = {1, 1, 2, 2, 2, 3};
  for (std::size_t rows = 0; rows <= values.size() + 2; ++rows) {
    auto column = column_of(values);
    column.resize(rows, 5);
    auto expected = values;
    expected.resize(rows, 5);
    EXPECT_EQ(column, expected) << rows;
    EXPECT_EQ(column, column_of(expected)) << rows << ": runs as if pushed one by one";
  }
}

// A host table reordered by start keeps each row's process with the row.
TEST(RunColumn, ReorderingATableMovesTheRunColumnWithItsRows) {
  ApiCallTable table;
  for (const std::int64_t start : {30, 10, 20, 40}) {
    table.process_id.push_back(start == 10 ? 2 : 1);
    table.thread_id.push_back(start);
    table.start_ns.push_back(start);
    table.end_ns.push_back(start + 1);
  }
  sort_by_start(table);
  EXPECT_EQ(table.start_ns, (std::vector<std::int64_t>{10, 20, 30, 40}));
  EXPECT_EQ(table.process_id, (std::vector<std::int64_t>{2, 1, 1, 1}));
  EXPECT_EQ(table.process_id.runs(), 2U);
  std::vector<std::uint32_t> first_two = {1, 0};
  apply_order(table, first_two);
  table.visit_columns([](auto& column) { column.resize(2); });
  EXPECT_EQ(table.process_id, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(table.thread_id, (std::vector<std::int64_t>{20, 10}));
}

}  // namespace
}  // namespace gpuprof::trace
