#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <tuple>

#include "gpuprof/trace/trace_sorting.hpp"

namespace gpuprof::trace {
namespace {

MemsetTable table_of(const std::vector<std::tuple<std::int32_t, std::int64_t, std::int64_t>>& rows) {
  MemsetTable table;
  for (const auto& [device, stream, start] : rows) {
    table.device.push_back(device);
    table.context.push_back(kUnknown);
    table.stream.push_back(stream);
    table.start_ns.push_back(start);
    table.end_ns.push_back(start + 1);
    table.correlation_id.push_back(start * 10);
    table.bytes.push_back(start * 100);
  }
  return table;
}

TEST(TraceSorting, GroupsByDeviceAndStreamThenStart) {
  auto table = table_of({{1, 7, 30}, {0, 9, 5}, {1, 7, 10}, {0, 3, 8}, {1, 2, 1}, {0, 9, 2}});
  const auto slices = sort_by_device_stream_start(table);
  ASSERT_EQ(slices.size(), 4U);
  EXPECT_EQ(table.start_ns, (std::vector<std::int64_t>{8, 2, 5, 1, 10, 30}));
  EXPECT_EQ(table.device, (std::vector<std::int32_t>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(table.stream, (std::vector<std::int64_t>{3, 9, 9, 2, 7, 7}));
  // Every column moved together.
  EXPECT_EQ(table.correlation_id, (std::vector<std::int64_t>{80, 20, 50, 10, 100, 300}));
  EXPECT_EQ(table.bytes, (std::vector<std::int64_t>{800, 200, 500, 100, 1000, 3000}));
  EXPECT_EQ(slices[1].device, 0);
  EXPECT_EQ(slices[1].stream, 9);
  EXPECT_EQ(slices[1].begin, 1U);
  EXPECT_EQ(slices[1].end, 3U);
}

// Rows in runs of one stream, as files hold them: when each stream's runs are in
// start order they move as whole blocks; when some stream's are not (across runs
// or inside one), its rows are sorted. Either way the table ends as a stable
// sort by (device, stream, start) would leave it.
TEST(TraceSorting, RunsOfStreamsGroupAsAStableSortWould) {
  std::uint64_t state = 7;
  const auto next = [&state] { return state = state * 6364136223846793005ULL + 1442695040888963407ULL; };
  for (const int disorder : {0, 1, 2}) {  // none, between two runs of a stream, inside a run
    std::vector<std::tuple<std::int32_t, std::int64_t, std::int64_t>> rows;
    std::vector<std::int64_t> clock(8, 0);
    for (int run = 0; run < 40; ++run) {
      const auto stream = static_cast<int>(next() % 8);
      const auto length = 1 + static_cast<int>(next() % 50);
      for (int i = 0; i < length; ++i) rows.emplace_back(stream % 2, stream / 2, clock[stream] += next() % 3);
    }
    if (disorder == 1) std::get<2>(rows.back()) = 0;  // a run starting before its stream's earlier rows
    if (disorder == 2) std::swap(std::get<2>(rows[1]), std::get<2>(rows[2]));
    auto table = table_of(rows);
    std::vector<std::size_t> expected(rows.size());
    std::iota(expected.begin(), expected.end(), 0U);
    const auto key = [&rows](std::size_t i) { return std::tuple(std::get<0>(rows[i]), std::get<1>(rows[i]), std::get<2>(rows[i])); };
    std::stable_sort(expected.begin(), expected.end(), [&key](std::size_t a, std::size_t b) { return key(a) < key(b); });

    StreamsOfRows streams;
    for (const auto& [device, stream, start] : rows) streams.add(device, stream);
    EXPECT_LT(streams.runs.size(), 41U) << "one run per run of rows, not per row";
    StreamOrder order;
    group_streams(streams, table.start_ns, order);
    EXPECT_EQ(order.rows.empty(), disorder == 0) << disorder;

    sort_by_device_stream_start(table);
    for (std::size_t row = 0; row < rows.size(); ++row) {
      const auto from = expected[row];
      ASSERT_EQ(table.start_ns[row], std::get<2>(rows[from])) << disorder << " " << row;
      ASSERT_EQ(table.device[row], std::get<0>(rows[from]));
      ASSERT_EQ(table.stream[row], std::get<1>(rows[from]));
      ASSERT_EQ(table.correlation_id[row], std::get<2>(rows[from]) * 10);
    }
  }
}

TEST(TraceSorting, EmptyTableHasNoSlices) {
  MemsetTable table;
  EXPECT_TRUE(sort_by_device_stream_start(table).empty());
}

TEST(TraceSorting, HostTableSortsByStartStably) {
  SyncTable table;
  for (std::int64_t start : {5, 1, 5, 0}) {
    table.process_id.push_back(1);
    table.thread_id.push_back(start);
    table.start_ns.push_back(start);
    table.end_ns.push_back(start + 2);
    table.type.push_back(SyncType::event);
    table.device.push_back(0);
    table.stream.push_back(kUnknown);
    table.event.push_back(table.event.size());
    table.correlation_id.push_back(kUnknown);
  }
  sort_by_start(table);
  EXPECT_EQ(table.start_ns, (std::vector<std::int64_t>{0, 1, 5, 5}));
  EXPECT_EQ(table.event, (std::vector<std::int64_t>{3, 1, 0, 2}));
}

// Nearly sorted (threads interleaved), reversed and all-equal starts give what a stable sort gives.
TEST(TraceSorting, HostTableOrderMatchesAStableSortOnAnyInput) {
  std::vector<std::vector<std::int64_t>> inputs;
  std::uint64_t state = 12345;
  const auto next = [&state] { return state = state * 6364136223846793005ULL + 1442695040888963407ULL; };
  std::vector<std::int64_t> nearly;
  for (std::int64_t i = 0; i < 5000; ++i) nearly.push_back(i * 10 + static_cast<std::int64_t>((next() >> 33) % 40));
  inputs.push_back(nearly);
  std::vector<std::int64_t> reversed;
  for (std::int64_t i = 300; i > 0; --i) reversed.push_back(i / 3);
  inputs.push_back(reversed);
  inputs.push_back(std::vector<std::int64_t>(100, 7));
  for (const auto& starts : inputs) {
    SyncTable table;
    for (const auto start : starts) {
      table.start_ns.push_back(start);
      table.process_id.push_back(static_cast<std::int64_t>(table.event.size() / 7 % 3));  // runs of 7 rows
      table.event.push_back(static_cast<std::int64_t>(table.event.size()));
    }
    std::vector<std::int64_t> expected(starts.size());
    std::iota(expected.begin(), expected.end(), 0);
    std::stable_sort(expected.begin(), expected.end(),
                     [&starts](std::int64_t a, std::int64_t b) { return starts[a] < starts[b]; });
    sort_by_start(table);
    EXPECT_EQ(table.event, expected);
    // The process moved with its row.
    for (std::size_t row = 0; row < expected.size(); ++row) ASSERT_EQ(table.process_id[row], expected[row] / 7 % 3);
  }
}

// Reordering moves every loaded column together, for a random permutation,
// the identity and one long cycle, and leaves a column that was not loaded empty.
TEST(TraceSorting, ApplyingAnOrderMovesEveryLoadedColumn) {
  std::uint64_t state = 99;
  const auto next = [&state] { return state = state * 6364136223846793005ULL + 1442695040888963407ULL; };
  for (const std::size_t rows : {0U, 1U, 2U, 7U, 1000U}) {
    std::vector<std::vector<std::uint32_t>> orders(3, std::vector<std::uint32_t>(rows));
    for (auto& order : orders) std::iota(order.begin(), order.end(), 0U);
    for (std::size_t i = rows; i > 1; --i) std::swap(orders[0][i - 1], orders[0][next() % i]);
    if (rows > 0) std::rotate(orders[2].begin(), orders[2].begin() + 1, orders[2].end());
    for (const auto& order : orders) {
      SyncTable table;
      for (std::size_t row = 0; row < rows; ++row) {
        table.start_ns.push_back(static_cast<std::int64_t>(next() % 1000));
        table.event.push_back(static_cast<std::int64_t>(row));
        table.type.push_back(static_cast<SyncType>(row % 6));
      }
      SyncTable expected;
      for (const auto index : order) {
        expected.start_ns.push_back(table.start_ns[index]);
        expected.event.push_back(table.event[index]);
        expected.type.push_back(table.type[index]);
      }
      apply_order(table, order);
      EXPECT_EQ(table.start_ns, expected.start_ns);
      EXPECT_EQ(table.event, expected.event);
      EXPECT_EQ(table.type, expected.type);
      EXPECT_TRUE(table.device.empty());
    }
  }
}

}  // namespace
}  // namespace gpuprof::trace
