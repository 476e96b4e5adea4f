#include <gtest/gtest.h>

#include <QTest>

#include "gpuprof/gui/main_window.hpp"
#include "gpuprof/gui/transfer_heat_map.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "temporary_folder.hpp"

// What the desktop app shows first: data-loss warnings, and a transfer heat
// map whose cells are the per-rank cells of `gpuprof report`.

namespace gpuprof::gui {
namespace {

using gpuprof::testing::TemporaryFolder;

std::unique_ptr<LoadedRank> rank_with_matrix(std::int32_t rank, std::int64_t bytes) {
  auto loaded = std::make_unique<LoadedRank>();
  loaded->analysis.rank = rank;
  auto& matrix = loaded->analysis.transfers.matrix;
  matrix.devices = {0, 1};
  matrix.cells.assign(2, std::vector<analysis::TransferTotals>(2));
  matrix.cells[0][1] = {.count = 1, .bytes = bytes, .total_ns = 1000, .exposed_ns = 500};
  return loaded;
}

// GPU 0 of rank 0 and GPU 0 of rank 1 are different GPUs: they never share a cell.
TEST(TransferHeatMap, OneRowAndColumnPerRankAndDevice) {
  Session session;
  session.ranks.push_back(rank_with_matrix(0, 100));
  session.ranks.push_back(rank_with_matrix(1, 700));
  TransferHeatMap map;
  map.set_session(&session);
  ASSERT_EQ(map.device_count(), 4U);
  EXPECT_EQ(map.devices()[2], (TransferHeatMap::RankDevice{1, 0}));
  EXPECT_EQ(map.cell({0, 0}, {0, 1}).bytes, 100);
  EXPECT_EQ(map.cell({1, 0}, {1, 1}).bytes, 700);
  EXPECT_EQ(map.cell({0, 0}, {1, 1}).count, 0);
  map.resize(400, 300);
  EXPECT_FALSE(map.grab().isNull());
}

TEST(MainWindow, DataLossIsOnTheFirstScreen) {
  TemporaryFolder folder;
  const auto path = folder.file("lossy.sqlite");
  {
    trace::TraceWriter writer({.path = path});
    writer.set_meta("source_format", "collector");
    writer.add(trace::KernelRow{.start_ns = 1'000, .end_ns = 3'000, .name = writer.intern("gemm")});
    writer.set_stat({.name = "invalid_buffers", .value = 4, .severity = trace::Severity::warning});
    writer.set_stat({.name = "records.kernel", .value = 1, .severity = trace::Severity::info});
    writer.finish();
  }
  MainWindow window;
  window.open_files({QString::fromStdString(path)});
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window.loading(); }, 300'000));
  ASSERT_TRUE(window.session()) << window.error_text().toStdString();
  const auto text = window.warning_text();
  EXPECT_TRUE(text.contains(QStringLiteral("invalid_buffers = 4"))) << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("records.kernel"))) << text.toStdString();
}

}  // namespace
}  // namespace gpuprof::gui
