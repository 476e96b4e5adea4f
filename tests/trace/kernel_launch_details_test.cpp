// The kernels' grid and block read after a model loaded without them (the app's first timeline, issue 38):
// each row of the file is found again in the loader's sorted order (StreamOrderPlacement), so the details are
// the ones a load with launch details gives, row for row, chunks or rows, in order or not; a file whose details
// break the rules, or that changed since, gets none and the reason.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <random>

#include "gpuprof/trace/kernel_launch_details.hpp"
#include "gpuprof/trace/stream_order_placement.hpp"
#include "gpuprof/trace/trace_sorting.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::trace {
namespace {

// A table in file order whose correlation id is its file row, with streams, ties and disorder as `seed` draws.
MemsetTable file_rows(unsigned seed, std::size_t rows, bool in_order_per_stream) {
  std::mt19937 random(seed);
  MemsetTable table;
  for (std::size_t i = 0; i < rows; ++i) {
    table.device.push_back(static_cast<std::int32_t>(random() % 2));
    table.context.push_back(kUnknown);
    table.stream.push_back(random() % 4 == 0 ? kUnknown : static_cast<std::int64_t>(random() % 3));
    // Few distinct starts, so that many rows of a stream tie.
    const auto start = in_order_per_stream ? static_cast<std::int64_t>(i / 4) : static_cast<std::int64_t>(random() % 20);
    table.start_ns.push_back(start);
    table.end_ns.push_back(start + static_cast<std::int64_t>(random() % 2));
    table.correlation_id.push_back(static_cast<std::int64_t>(i));
    table.bytes.push_back(0);
  }
  return table;
}

// Places every file row into the sorted table; each must land on the row that sorting moved it to.
void expect_every_row_placed(const MemsetTable& file) {
  auto sorted = file;
  const auto slices = sort_by_device_stream_start(sorted);
  StreamOrderPlacement placement(sorted, slices);
  for (std::size_t i = 0; i < file.size(); ++i) {
    const auto at = placement.place(file.device[i], file.stream[i], file.start_ns[i], file.end_ns[i]);
    ASSERT_TRUE(at.has_value()) << "file row " << i;
    EXPECT_EQ(sorted.correlation_id[*at], static_cast<std::int64_t>(i)) << "file row " << i;
  }
  EXPECT_TRUE(placement.complete());
}

TEST(StreamOrderPlacement, FindsEachFileRowWhereTheStableSortPutIt) {
  for (unsigned seed = 1; seed <= 20; ++seed) expect_every_row_placed(file_rows(seed, 300, false));
}

TEST(StreamOrderPlacement, FindsRowsOfAFileInOrderPerStream) {
  for (unsigned seed = 1; seed <= 5; ++seed) expect_every_row_placed(file_rows(seed, 300, true));
}

// A file in order whose later rows are not: the rows placed before the first one out of order stay placed.
TEST(StreamOrderPlacement, SwitchesToSearchingWhereTheFileLeavesStartOrder) {
  auto file = file_rows(3, 200, true);
  std::mt19937 random(5);
  std::shuffle(file.start_ns.begin() + 150, file.start_ns.end(), random);
  for (std::size_t i = 150; i < file.size(); ++i) file.end_ns[i] = file.start_ns[i];
  expect_every_row_placed(file);
}

TEST(StreamOrderPlacement, ARowTheTableDoesNotHoldIsNotPlaced) {
  auto sorted = file_rows(1, 50, false);
  const auto slices = sort_by_device_stream_start(sorted);
  StreamOrderPlacement placement(sorted, slices);
  EXPECT_FALSE(placement.place(7, 0, sorted.start_ns[0], sorted.end_ns[0]));  // no such device
  EXPECT_FALSE(placement.place(sorted.device[0], sorted.stream[0], sorted.start_ns[0], sorted.end_ns[0] + 5));
  EXPECT_FALSE(placement.place(sorted.device[0], sorted.stream[0], -1, 0));
  EXPECT_EQ(placement.placed(), 0U);
  EXPECT_FALSE(placement.complete());
}

TEST(StreamOrderPlacement, EachRowIsPlacedOnce) {
  MemsetTable table = file_rows(1, 1, true);
  const auto slices = sort_by_device_stream_start(table);
  StreamOrderPlacement placement(table, slices);
  ASSERT_TRUE(placement.place(table.device[0], table.stream[0], table.start_ns[0], table.end_ns[0]));
  EXPECT_FALSE(placement.place(table.device[0], table.stream[0], table.start_ns[0], table.end_ns[0]));
}

void run_sql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  sqlite3_close(db);
}

constexpr int kKernels = 140'000;  // three column chunks

// Kernels on several devices and streams (NULL among them), in the file partly against time and with ties,
// each with its own grid; two rows the loader leaves out whatever it loads.
void write_kernels(const std::string& path) {
  TraceWriter writer({.path = path, .tool_version = "test"});
  const auto gemm = writer.intern("gemm");
  for (int i = 0; i < kKernels; ++i) {
    KernelRow k{.device = i % 3, .start_ns = i < kKernels / 2 ? i / 3 * 10 : 2'000'000 - i * 7 % 5000, .name = gemm};
    k.end_ns = k.start_ns + 5;
    if (i % 5 != 0) k.stream = 7 + i % 4;
    if (i % 4 != 0) k.grid = Dim3{i, 1 + i % 3, 1}, k.block = Dim3{32 + i % 97, 1, 1};
    if (i == 777) k.end_ns = k.start_ns - 1;  // ends before it starts
    if (i == 778) k.name = 12'345;             // names no string
    writer.add(k);
  }
  writer.finish();
}

class KernelLaunchDetailsFile : public ::testing::Test {
 protected:
  void SetUp() override {
    write_kernels(chunked);
    std::filesystem::copy_file(chunked, rows_only);
    run_sql(rows_only, "DELETE FROM event_chunks");
  }
  static TraceModel without_details(const std::string& path) {
    return load_trace_model(path, {.load_kernel_launch_details = false, .load_contexts_and_return_codes = false});
  }
  testing::TemporaryFolder folder;
  std::string chunked = folder.file("chunked.sqlite"), rows_only = folder.file("rows.sqlite");
};

TEST_F(KernelLaunchDetailsFile, AreTheOnesALoadWithThemGivesRowForRow) {
  for (const auto& path : {chunked, rows_only}) {
    const auto full = load_trace_model(path);
    const auto model = without_details(path);
    ASSERT_EQ(model.kernels.size(), static_cast<std::size_t>(kKernels - 2)) << path;
    ASSERT_TRUE(model.kernels.grid.empty());
    const auto details = load_kernel_launch_details(path, model);
    EXPECT_EQ(details.problem, "") << path;
    EXPECT_TRUE(details.grid == full.kernels.grid) << path;
    EXPECT_TRUE(details.block == full.kernels.block) << path;
    EXPECT_TRUE(model.kernels.start_ns == full.kernels.start_ns) << path;
  }
}

TEST_F(KernelLaunchDetailsFile, NoneWhenAKernelsDetailsBreakTheRules) {
  const auto model = without_details(rows_only);
  run_sql(rows_only, "UPDATE kernels SET grid_x = 1 << 40 WHERE rowid = 10");
  const auto details = load_kernel_launch_details(rows_only, model);
  EXPECT_TRUE(details.grid.empty() && details.block.empty());
  EXPECT_NE(details.problem.find("1 of 139998 kernels"), std::string::npos) << details.problem;
  EXPECT_NE(details.problem.find("kernels.grid_x"), std::string::npos) << details.problem;
}

TEST_F(KernelLaunchDetailsFile, NoneWhenTheFileChangedSinceTheModelWasLoaded) {
  for (const auto* sql : {"DELETE FROM kernels WHERE rowid = 20", "UPDATE kernels SET end_ns = end_ns + 1 WHERE rowid = 9",
                          "UPDATE kernels SET stream = 99 WHERE rowid = 30"}) {
    auto copy = folder.file("changed.sqlite");
    std::filesystem::copy_file(chunked, copy, std::filesystem::copy_options::overwrite_existing);
    const auto model = without_details(copy);
    run_sql(copy, sql);
    const auto details = load_kernel_launch_details(copy, model);
    EXPECT_TRUE(details.grid.empty()) << sql;
    EXPECT_NE(details.problem.find("the file changed"), std::string::npos) << sql << ": " << details.problem;
  }
}

TEST_F(KernelLaunchDetailsFile, AModelWithoutKernelsNeedsNone) {
  const auto path = folder.file("empty.sqlite");
  TraceWriter writer({.path = path, .tool_version = "test"});
  writer.finish();
  const auto details = load_kernel_launch_details(path, without_details(path));
  EXPECT_EQ(details.problem, "");
  EXPECT_TRUE(details.grid.empty());
}

}  // namespace
}  // namespace gpuprof::trace
