// The nsys-style host summaries as app panels: the same rows and figures as `gpuprof report --sections
// nvtx,api,launches`, computed only once the panel is shown.

#include <gtest/gtest.h>

#include <algorithm>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QDockWidget>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include "gpuprof/gui/models/analysis_tables.hpp"
#include "gpuprof/gui/host_summary_panel.hpp"
#include "gpuprof/gui/main_window.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gui_fixtures.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

using gpuprof::testing::TemporaryFolder;
constexpr int kTimeoutMs = 300'000;  // a safety net for a hung worker, not a performance check

QAbstractItemModel* source_of(QTableView* table) {
  return static_cast<QSortFilterProxyModel*>(table->model())->sourceModel();
}

// Each row of the panel's table against the analyzer's rows the report prints: name, total, instances.
void expect_same_rows(QTableView* table, const std::vector<summaries::NamedDurations>& expected) {
  auto* model = source_of(table);
  ASSERT_NE(model, nullptr);
  QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Warning);
  ASSERT_EQ(model->rowCount(), static_cast<int>(expected.size()));
  for (int row = 0; row < model->rowCount(); ++row) {
    const auto& want = expected[static_cast<std::size_t>(row)];
    EXPECT_EQ(model->index(row, 0).data().toString().toStdString(), want.name);
    EXPECT_EQ(model->index(row, 2).data(TableModel::SortRole).toLongLong(), want.stats.total_ns) << want.name;
    EXPECT_EQ(model->index(row, 3).data(TableModel::SortRole).toLongLong(), want.stats.instances) << want.name;
  }
}

TEST(HostSummaries, PanelsShowTheReportsTablesOnceShown) {
  TemporaryFolder folder;
  const auto path = folder.file("dp.sqlite");
  testing::write_trace(path, 2, 6);
  const auto session = testing::load(path);
  HostSummaryPanel panel;
  panel.set_session(session);
  EXPECT_FALSE(panel.ready());  // nothing is computed before the panel is shown
  panel.show();
  ASSERT_TRUE(QTest::qWaitFor([&] { return panel.ready(); }, kTimeoutMs));

  job::JobOptions options;
  options.analysis.host_summaries = true;
  auto job = job::analyze_job({path}, options);
  const auto host = job.ranks[0].analysis.host;
  ASSERT_FALSE(host.ranges.empty());
  ASSERT_FALSE(host.api_calls.empty());
  ASSERT_FALSE(host.launch_latency.empty());
  expect_same_rows(panel.table(0), host.ranges);
  expect_same_rows(panel.table(1), host.api_calls);
  expect_same_rows(panel.table(2), host.launch_latency);
  auto* queues = source_of(panel.table(3));
  ASSERT_EQ(queues->rowCount(), static_cast<int>(host.launch_queues.size()));
  EXPECT_EQ(queues->index(0, 3).data(TableModel::SortRole).toLongLong(), host.launch_queues[0].max_depth);
  // The queues over time: one line per device, as deep as the table says (the JSON's launch_queues[].series).
  std::int64_t deepest = 0;
  for (const auto& queue : host.launch_queues) deepest = std::max(deepest, queue.max_depth);
  EXPECT_EQ(panel.queue_chart()->line_count(), static_cast<int>(host.launch_queues.size()));
  EXPECT_EQ(panel.queue_chart()->deepest(), deepest);
  // The name the panel lists first is the first one `gpuprof report --sections nvtx` prints.
  auto input = report::report_input(std::move(job));
  input.sections = {report::Section::nvtx};
  EXPECT_NE(report::render(report::Format::text, input).find(host.ranges[0].name), std::string::npos);
  testing::save_and_check(panel.grab().toImage(), QStringLiteral("panel_host_summaries"));
  panel.setCurrentWidget(panel.queue_chart());
  testing::save_and_check(panel.grab().toImage(), QStringLiteral("panel_launch_queue_over_time"));
}

TEST(HostSummaries, ATraceOpenedWhileTheyAreComputedGetsItsOwn) {
  TemporaryFolder folder;
  testing::write_trace(folder.file("one.sqlite"), 1, 4);
  testing::write_trace(folder.file("three.sqlite"), 3, 4);
  HostSummaryPanel panel;
  panel.show();
  panel.set_session(testing::load(folder.file("one.sqlite")));
  panel.set_session(testing::load(folder.file("three.sqlite")));  // while the first one is computed
  ASSERT_TRUE(QTest::qWaitFor([&] { return panel.ready(); }, kTimeoutMs));
  EXPECT_EQ(source_of(panel.table(3))->rowCount(), 3);  // one launch queue per GPU of the second trace
}

TEST(HostSummaries, OpeningATraceDoesNotComputeThemUntilTheDockIsRaised) {
  TemporaryFolder folder;
  testing::write_trace(folder.file("dp.sqlite"), 1, 4);
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  window.open_files({QString::fromStdString(folder.file("dp.sqlite"))});
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window.loading(); }, kTimeoutMs));
  ASSERT_TRUE(window.session());
  EXPECT_FALSE(window.host_summaries()->ready());
  for (auto* dock : window.docks()) {
    if (dock->widget() == window.host_summaries()) dock->raise();
  }
  ASSERT_TRUE(QTest::qWaitFor([&] { return window.host_summaries()->ready(); }, kTimeoutMs));
  EXPECT_GT(source_of(window.host_summaries()->table(1))->rowCount(), 0);
}

}  // namespace
}  // namespace gpuprof::gui
