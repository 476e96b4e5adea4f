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

// The run walk visits every row once, in order, with its value, and starts each run before its rows.
TEST(RunColumn, WalksEveryRowWithItsValueAndAHookPerRun) {
  const std::vector<std::int64_t> values = {5, 2, 2, 2, 2, 2, 2, 9, 9, 5};  // runs of 1, 6, 2 and 1 rows
  const auto column = column_of(values);
  std::vector<std::int64_t> read;
  std::vector<std::size_t> rows;
  std::vector<std::int64_t> started;
  std::vector<std::size_t> started_at;
  column.for_each_row(
      [&](std::int64_t value, std::size_t row) { read.push_back(value), rows.push_back(row); },
      [&](std::int64_t value) { started.push_back(value), started_at.push_back(rows.size()); });
  EXPECT_EQ(read, values);
  std::vector<std::size_t> every(values.size());
  std::iota(every.begin(), every.end(), std::size_t{0});
  EXPECT_EQ(rows, every);
  EXPECT_EQ(started, (std::vector<std::int64_t>{5, 2, 9, 5}));
  EXPECT_EQ(started_at, (std::vector<std::size_t>{0, 1, 7, 9}));
  std::vector<std::int64_t> without_hook;
  column.for_each_row([&](std::int64_t value, std::size_t) { without_hook.push_back(value); });
  EXPECT_EQ(without_hook, values);
}

TEST(RunColumn, WalkOfAnEmptyOrCutColumnVisitsNothingPast) {
  RunColumn<std::int32_t> empty;
  int calls = 0;
  empty.for_each_row([&](std::int32_t, std::size_t) { ++calls; }, [&](std::int32_t) { ++calls; });
  EXPECT_EQ(calls, 0);
  auto cut = column_of({1, 1, 4, 4, 4, 6});
  cut.resize(3);  // inside the second run
  std::vector<std::size_t> rows;
  std::size_t runs = 0;
  cut.for_each_row([&](std::int64_t, std::size_t row) { rows.push_back(row); }, [&](std::int64_t) { ++runs; });
  EXPECT_EQ(rows, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(runs, 2U);
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
