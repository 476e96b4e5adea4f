#include <gtest/gtest.h>

#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QUrl>
#include <QFile>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include <filesystem>

#include "gpuprof/gui/models/analysis_tables.hpp"
#include "gpuprof/gui/compare_view.hpp"
#include "gpuprof/gui/idle_cause_chart.hpp"
#include "gpuprof/gui/memory_chart.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/rank/idle_description.hpp"
#include "gpuprof/gui/models/table_model.hpp"
#include "gpuprof/gui/main_window.hpp"
#include "gpuprof/gui/report_export.hpp"
#include "gpuprof/gui/run_alignment.hpp"
#include "gpuprof/gui/timeline_view.hpp"
#include "gpuprof/gui/waterfall_chart.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gui_fixtures.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

using gpuprof::testing::TemporaryFolder;
using testing::save_and_check;

constexpr int kLoadTimeoutMs = 300'000;  // a safety net for a hung loader, not a performance check

bool wait_until_loaded(const MainWindow& window) {
  return QTest::qWaitFor([&] { return !window.loading(); }, kLoadTimeoutMs);
}

// The first kernel of rank 0 that starts inside the current view.
std::optional<EventRef> visible_kernel(const TimelineView& view) {
  const auto& kernels = view.session()->ranks[0]->model.kernels;
  for (std::size_t row = 0; row < kernels.size(); ++row) {
    if (kernels.start_ns[row] > view.axis().view_start() && kernels.end_ns[row] < view.axis().view_end() &&
        static_cast<double>(kernels.end_ns[row] - kernels.start_ns[row]) > view.axis().ns_per_px() * 6) {
      return EventRef{0, LaneKind::kernels, row};
    }
  }
  return std::nullopt;
}

void grab_dock(QDockWidget* dock) {
  dock->setFloating(true);
  dock->resize(900, 600);
  dock->show();
  dock->raise();
  QApplication::processEvents();
  const QString name = QStringLiteral("panel_") + dock->objectName().toLower().replace(QLatin1Char(' '), QLatin1Char('_'));
  save_and_check(dock->widget()->grab().toImage(), name);
}

TEST(MainWindow, OpensMultiGpuTraceZoomsToStepSelectsKernelAndSavesScreenshots) {
  TemporaryFolder folder;
  const auto path = folder.file("dp4.sqlite");
  testing::write_trace(path, 4, 12);
  MainWindow window;
  window.resize(1600, 1000);
  window.show();
  window.open_files({QString::fromStdString(path)});
  EXPECT_TRUE(window.loading());
  ASSERT_TRUE(wait_until_loaded(window));
  ASSERT_TRUE(window.session());
  EXPECT_TRUE(window.error_text().isEmpty()) << window.error_text().toStdString();
  auto* timeline = window.timeline();
  save_and_check(timeline->render_image({1600, 900}), QStringLiteral("timeline_fit_all"));

  // The Summary panel says what `gpuprof report --sections summary` says, from the same analyses.
  auto cli_input = report::report_input(job::analyze_job({path}, {}));
  cli_input.sections = {report::Section::summary};
  const auto expected = report::render(report::Format::text, cli_input);
  EXPECT_NE(expected.find("step"), std::string::npos) << expected;
  EXPECT_EQ(window.summary_text().toStdString(), expected);

  // Steps table: row 3 zooms the timeline to that step.
  auto* steps = window.step_table()->model();
  ASSERT_GT(steps->rowCount(), 3);
  const auto range = steps->index(3, 0).data(TableModel::PayloadRole).value<QList<qint64>>();
  window.select_step_row(3);
  EXPECT_LE(timeline->axis().view_start(), range[0]);
  EXPECT_GE(timeline->axis().view_end(), range[1]);
  EXPECT_LT(timeline->axis().view_span_ns(), 1.2 * static_cast<double>(range[1] - range[0]));

  // Kernels table: sorted by total time, longest first, without a click; the first row's instances are highlighted.
  auto* kernels = window.kernel_proxy();
  EXPECT_EQ(kernels->sortColumn(), kKernelTotalColumn);
  for (int row = 1; row < kernels->rowCount(); ++row) {
    EXPECT_GE(kernels->index(row - 1, kKernelTotalColumn).data(TableModel::SortRole).toLongLong(),
              kernels->index(row, kKernelTotalColumn).data(TableModel::SortRole).toLongLong());
  }
  window.select_kernel_row(0);
  EXPECT_GT(timeline->highlighted_instances(), 0u);

  // A click on a kernel selects it and shows the API call that launched it.
  const auto kernel = visible_kernel(*timeline);
  ASSERT_TRUE(kernel);
  const auto rect = TimelinePainter::event_rect(*window.session(), timeline->layout(), timeline->axis(), *kernel,
                                                timeline->scroll_y());
  ASSERT_TRUE(rect);
  QTest::mouseClick(timeline, Qt::LeftButton, {}, rect->center().toPoint());
  ASSERT_TRUE(timeline->selected());
  EXPECT_EQ(timeline->selected()->kind, LaneKind::kernels);
  const auto details = describe_event(*window.session()->ranks[0], *timeline->selected());
  EXPECT_NE(details.find("Launched by"), std::string::npos) << details;

  // A synthetic trace has no collective metadata: the panel says so instead of looking like "no collectives".
  EXPECT_EQ(window.collective_table()->model()->rowCount(), 0);
  bool collectives_titled = false;
  for (auto* dock : window.docks()) {
    collectives_titled |= dock->windowTitle() == QStringLiteral("Collectives (no metadata)");
  }
  EXPECT_TRUE(collectives_titled);
  EXPECT_FALSE(window.collective_table()->toolTip().isEmpty());

  QApplication::processEvents();
  save_and_check(window.grab().toImage(), QStringLiteral("main_window"));
  save_and_check(timeline->render_image({1600, 900}), QStringLiteral("timeline_step"));
  for (auto* dock : window.docks()) grab_dock(dock);
}

// Issue 38: the first timeline does not wait for the analyses (as hotspot shows what it parsed); they arrive
// after it, on a worker thread, and fill the docks without moving the view the user chose meanwhile.
TEST(MainWindow, TheTimelineIsShownBeforeTheAnalysesAndKeepsItsViewWhenTheyArrive) {
  TemporaryFolder folder;
  const auto path = folder.file("dp2.sqlite");
  testing::write_trace(path, 2, 12);
  MainWindow window;
  window.resize(1600, 1000);
  window.show();
  auto* timeline = window.timeline();
  bool first_seen = false, loading_then = false, analysed_then = true, summary_empty_then = false;
  std::int64_t view_start = 0, view_end = 0;
  QObject::connect(timeline, &TimelineView::view_changed, &window, [&] {
    if (first_seen || !timeline->session()) return;
    first_seen = true;
    loading_then = window.loading();
    analysed_then = timeline->session()->analysed;
    summary_empty_then = window.summary_text().isEmpty();
    // The user zooms in before the analyses end.
    view_start = timeline->axis().view_start() + (timeline->axis().view_end() - timeline->axis().view_start()) / 3;
    view_end = view_start + (timeline->axis().view_end() - timeline->axis().view_start()) / 4;
    timeline->set_view(view_start, view_end);
  });
  window.open_files({QString::fromStdString(path)});
  ASSERT_TRUE(wait_until_loaded(window));
  ASSERT_TRUE(first_seen);
  EXPECT_TRUE(loading_then) << "the timeline waited for the analyses";
  EXPECT_FALSE(analysed_then);
  EXPECT_TRUE(summary_empty_then);
  ASSERT_TRUE(window.session());
  EXPECT_TRUE(window.session()->analysed);
  EXPECT_FALSE(window.session()->ranks[0]->analysis.steps.empty());
  EXPECT_FALSE(window.summary_text().isEmpty());
  EXPECT_GT(window.kernel_proxy()->rowCount(), 0);
  EXPECT_EQ(timeline->axis().view_start(), view_start);
  EXPECT_EQ(timeline->axis().view_end(), view_end);
}

// The two stages give the session that opening in one go gives: the same analyses, drawn on the same rows.
TEST(LoadSession, TheTimelineStageLeavesTheAnalysesToTheSecondStage) {
  TemporaryFolder folder;
  const auto path = folder.file("dp2.sqlite");
  testing::write_trace(path, 2, 12);
  const std::atomic<bool> cancel{false};
  const auto whole = load_session({path}, {}, cancel);
  const auto staged = load_session_timeline({path}, {}, cancel);
  EXPECT_FALSE(staged->analysed);
  EXPECT_TRUE(staged->ranks[0]->analysis.steps.empty());
  EXPECT_EQ(staged->ranks[0]->name_categories, whole->ranks[0]->name_categories);
  EXPECT_EQ(staged->ranks[0]->timeline.rows.size(), whole->ranks[0]->timeline.rows.size());
  apply_analyses(*staged, analyse_session(*staged, cancel));
  EXPECT_TRUE(staged->analysed);
  EXPECT_EQ(summary_text(*staged), summary_text(*whole));
  EXPECT_EQ(staged->ranks[0]->analysis.steps.size(), whole->ranks[0]->analysis.steps.size());
  EXPECT_EQ(staged->ranks[0]->analysis.idle_intervals.size(), whole->ranks[0]->analysis.idle_intervals.size());
}

// The first timeline draws no launch details, so a gpuprof file's are read with the analyses: once applied, every
// kernel's grid and block are the ones a load with them gives, and the Details pane shows them (issue 38).
TEST(LoadSession, TheLaunchDetailsArriveWithTheAnalysesAsALoadWithThemGivesThem) {
  TemporaryFolder folder;
  const auto path = folder.file("dp2.sqlite");
  testing::write_trace(path, 2, 12);
  const std::atomic<bool> cancel{false};
  const auto staged = load_session_timeline({path}, {}, cancel);
  auto& rank = *staged->ranks[0];
  ASSERT_GT(rank.model.kernels.size(), 0U);
  EXPECT_TRUE(rank.model.kernels.grid.empty()) << "the first timeline waited for the launch details";
  EXPECT_TRUE(rank.launch_details_pending);
  const EventRef first_kernel{0, LaneKind::kernels, 0};
  EXPECT_NE(describe_event(rank, first_kernel).find("Grid, block: being read"), std::string::npos);
  apply_analyses(*staged, analyse_session(*staged, cancel));
  const auto full = trace::load_trace_model(path);
  EXPECT_FALSE(rank.launch_details_pending);
  EXPECT_EQ(rank.launch_details_problem, "");
  EXPECT_TRUE(rank.model.kernels.grid == full.kernels.grid);
  EXPECT_TRUE(rank.model.kernels.block == full.kernels.block);
  const auto& grid = full.kernels.grid[0];
  EXPECT_NE(describe_event(rank, first_kernel)
                .find("Grid: " + std::to_string(grid.x) + "x" + std::to_string(grid.y) + "x" + std::to_string(grid.z)),
            std::string::npos);
}

// A file whose launch details a load with them would refuse opens with every event, and says why it has none.
TEST(LoadSession, AFileWhoseLaunchDetailsBreakTheRulesOpensWithoutThemAndSaysWhy) {
  TemporaryFolder folder;
  const auto path = folder.file("dp2.sqlite");
  testing::write_trace(path, 1, 4);
  {
    sqlite::Database database(path, sqlite::OpenMode::read_write);
    database.execute("UPDATE kernels SET block_x = 1 << 40 WHERE rowid = 3");
  }
  const auto session = testing::load(path);
  const auto& rank = *session->ranks[0];
  EXPECT_EQ(rank.model.kernels.size(), trace::load_trace_model(path, {.load_kernel_launch_details = false}).kernels.size());
  EXPECT_TRUE(rank.model.kernels.grid.empty());
  EXPECT_NE(rank.launch_details_problem.find("kernels.block_x"), std::string::npos) << rank.launch_details_problem;
  EXPECT_NE(describe_event(rank, {0, LaneKind::kernels, 0}).find("Grid, block: not read: 1 of"), std::string::npos);
}

TEST(MainWindow, KeysZoomAndPan) {
  TemporaryFolder folder;
  const auto path = folder.file("dp2.sqlite");
  testing::write_trace(path, 2, 6);
  MainWindow window;
  window.show();
  window.open_files({QString::fromStdString(path)});
  ASSERT_TRUE(wait_until_loaded(window));
  auto* timeline = window.timeline();
  const double full = timeline->axis().view_span_ns();
  QTest::keyClick(timeline, Qt::Key_Plus);
  EXPECT_NEAR(timeline->axis().view_span_ns(), full / 1.25, 1.0);
  const auto start = timeline->axis().view_start();
  QTest::keyClick(timeline, Qt::Key_Right);
  EXPECT_GT(timeline->axis().view_start(), start);
  QTest::keyClick(timeline, Qt::Key_F);
  EXPECT_NEAR(timeline->axis().view_span_ns(), full, 1.0);
}

TEST(MainWindow, ShiftDragZoomsToTheDraggedRange) {
  TemporaryFolder folder;
  const auto path = folder.file("dp2.sqlite");
  testing::write_trace(path, 2, 6);
  TimelineView view;
  view.resize(1150, 500);
  view.set_session(testing::load(path));
  view.show();
  const auto expected_start = view.axis().ns_of(200), expected_end = view.axis().ns_of(600);
  const int y = 100;
  QTest::mousePress(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(kLabelWidth + 200, y));
  QTest::mouseMove(&view, QPoint(kLabelWidth + 400, y));
  QTest::mouseMove(&view, QPoint(kLabelWidth + 600, y));
  QTest::mouseRelease(&view, Qt::LeftButton, Qt::ShiftModifier, QPoint(kLabelWidth + 600, y));
  EXPECT_NEAR(static_cast<double>(view.axis().view_start()), static_cast<double>(expected_start), 2.0);
  EXPECT_NEAR(static_cast<double>(view.axis().view_end()), static_cast<double>(expected_end), 2.0);
}

// Issue 28: hovering idle GPU time names its cause and coverage; the idle-cause chart has a bar per device.
TEST(MainWindow, HoveringIdleTimeNamesItsCauseAndCoverage) {
  TemporaryFolder folder;
  const auto path = folder.file("idle.sqlite");
  testing::write_trace(path, 2, 6);
  TimelineView view;
  view.resize(1150, 500);
  view.set_session(testing::load(path));
  view.show();
  const auto& rank = *view.session()->ranks[0];
  const auto& intervals = rank.analysis.idle_intervals;
  ASSERT_FALSE(intervals.empty());
  const auto first_device = intervals.front().device;
  const auto* longest = &intervals.front();
  for (const auto& interval : intervals) {
    if (interval.device == first_device && interval.end_ns - interval.start_ns > longest->end_ns - longest->start_ns) {
      longest = &interval;
    }
  }
  const auto middle = longest->start_ns + (longest->end_ns - longest->start_ns) / 2;
  const int x = kLabelWidth + static_cast<int>(view.axis().x_of(middle));
  std::optional<std::string> found;
  for (int y = kRulerHeight + 1; y < 500 && !found; y += 2) found = view.idle_at(QPoint(x, y));
  ASSERT_TRUE(found);
  EXPECT_EQ(*found, idle::describe_idle(*longest));
  EXPECT_NE(found->find("coverage"), std::string::npos);

  IdleCauseChart chart;
  chart.set_session(view.session());
  std::size_t devices = 0;
  for (const auto& loaded : view.session()->ranks) devices += loaded->analysis.devices.size();
  EXPECT_EQ(chart.bar_count(), static_cast<int>(devices));
}

// Issue 30: the GPU memory panel draws the analyzer's timeline, one line per device, up to its peak; a trace
// without memory events says "not recorded" and draws nothing.
TEST(MainWindow, TheMemoryPanelDrawsOneLinePerDeviceUpToItsPeak) {
  TemporaryFolder folder;
  const auto path = folder.file("memory.sqlite");
  testing::write_trace(path, 2, 4);
  MemoryChart chart;
  chart.set_session(testing::load(path).get());
  EXPECT_EQ(chart.line_count(), 0);
  {
    sqlite::Database database(path, sqlite::OpenMode::read_write);
    // Weights of 64 MiB on GPU 0 and 32 MiB on GPU 1, then a 16 MiB workspace on GPU 0 that comes and goes.
    database.execute(
        "INSERT INTO memory_events SELECT 0, NULL, NULL, min(start_ns), NULL, 1, 3, NULL, 67108864, NULL FROM kernels;"
        "INSERT INTO memory_events SELECT 1, NULL, NULL, min(start_ns), NULL, 1, 3, NULL, 33554432, NULL FROM kernels;"
        "INSERT INTO memory_events SELECT 0, NULL, NULL, min(start_ns) + 1000, NULL, 1, 3, NULL, 16777216, NULL "
        "FROM kernels;"
        "INSERT INTO memory_events SELECT 0, NULL, NULL, min(start_ns) + 2000, NULL, 2, 3, NULL, 16777216, NULL "
        "FROM kernels;");
  }
  chart.set_session(testing::load(path).get());
  EXPECT_EQ(chart.line_count(), 2);
  EXPECT_DOUBLE_EQ(chart.highest_mib(), 80.0);
}

TEST(MainWindow, DroppedFilesAreOpened) {
  TemporaryFolder folder;
  const auto path = folder.file("dropped.sqlite");
  testing::write_trace(path, 1, 4);
  MainWindow window;
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(path))});
  // As a drag manager would: enter, then drop.
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&window, &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&window, &drop);
  ASSERT_TRUE(wait_until_loaded(window));
  ASSERT_TRUE(window.session()) << window.error_text().toStdString();
  EXPECT_EQ(window.session()->ranks[0]->source_path, path);
}

TEST(MainWindow, CorruptFileShowsAnErrorInTheWindow) {
  TemporaryFolder folder;
  const auto path = folder.file("corrupt.sqlite");
  gpuprof::testing::write_file(path, std::string("SQLite format 3\0this is not a database at all", 46));
  MainWindow window;
  window.resize(1200, 700);
  window.show();
  window.open_files({QString::fromStdString(path)});
  ASSERT_TRUE(wait_until_loaded(window));
  EXPECT_FALSE(window.session());
  const QString error = window.error_text();
  EXPECT_TRUE(error.contains(QStringLiteral("corrupt.sqlite"))) << error.toStdString();
  QApplication::processEvents();
  save_and_check(window.grab().toImage(), QStringLiteral("main_window_error"));
}

TEST(MainWindow, MissingFileShowsAnErrorAndCancelLeavesTheWindowUsable) {
  MainWindow window;
  window.open_files({QStringLiteral("/nonexistent/run.sqlite")});
  ASSERT_TRUE(wait_until_loaded(window));
  EXPECT_TRUE(window.error_text().contains(QStringLiteral("run.sqlite")));
  TemporaryFolder folder;
  const auto path = folder.file("dp.sqlite");
  testing::write_trace(path, 2, 6);
  window.open_files({QString::fromStdString(path)});
  window.cancel_loading();
  ASSERT_TRUE(wait_until_loaded(window));
  window.open_files({QString::fromStdString(path)});
  ASSERT_TRUE(wait_until_loaded(window));
  EXPECT_TRUE(window.session());
}

TEST(MainWindow, OpensSeveralRankFilesAsOneJob) {
  TemporaryFolder folder;
  QStringList paths;
  for (int rank = 0; rank < 2; ++rank) {
    synthetic::SynthOptions options;
    options.devices = 1;
    options.steps = 5;
    options.kernels_per_step = 8;
    options.rank = rank;
    options.world_size = 2;
    const auto path = folder.file("rank" + std::to_string(rank) + ".sqlite");
    synthetic::write_synthetic_trace(path, options);
    paths << QString::fromStdString(path);
  }
  MainWindow window;
  window.open_files(paths);
  ASSERT_TRUE(wait_until_loaded(window));
  ASSERT_TRUE(window.session());
  ASSERT_EQ(window.session()->ranks.size(), 2u);
  EXPECT_EQ(window.session()->ranks[1]->analysis.rank, 1);
}

TEST(CompareView, ShowsBothRunsAlignedWithTheWaterfall) {
  TemporaryFolder folder;
  testing::write_trace(folder.file("one.sqlite"), 1, 10);
  testing::write_trace(folder.file("two.sqlite"), 2, 10);
  const auto base = testing::load(folder.file("one.sqlite"));
  const auto other = testing::load(folder.file("two.sqlite"));
  CompareView view;
  view.resize(1600, 1100);
  view.show();
  view.set_runs(base, other, QStringLiteral("1 GPU"), QStringLiteral("2 GPUs"));
  EXPECT_GT(view.comparison().speedup, 0.0);
  EXPECT_GT(view.waterfall()->term_count(), 0u);
  const auto base_offset = view.base_timeline()->axis().view_start() - alignment_anchor(*base);
  const auto other_offset = view.other_timeline()->axis().view_start() - alignment_anchor(*other);
  EXPECT_EQ(base_offset, other_offset);
  QTest::keyClick(view.base_timeline(), Qt::Key_Plus);
  // The follower gets whole nanoseconds.
  EXPECT_NEAR(view.base_timeline()->axis().view_span_ns(), view.other_timeline()->axis().view_span_ns(), 1.0);
  QApplication::processEvents();
  save_and_check(view.grab().toImage(), QStringLiteral("compare_view"));
}

TEST(Export, WritesTheReportAndThePicture) {
  TemporaryFolder folder;
  testing::write_trace(folder.file("dp.sqlite"), 2, 6);
  const auto session = testing::load(folder.file("dp.sqlite"));
  export_report(*session, report::Format::html, folder.file("report.html"));
  const auto html = gpuprof::testing::read_file(folder.file("report.html"));
  EXPECT_NE(html.find("<html"), std::string::npos);
  export_report(*session, report::Format::csv, folder.file("csv") + "/");
  EXPECT_TRUE(std::filesystem::exists(folder.path() / "csv"));
  EXPECT_FALSE(std::filesystem::is_empty(folder.path() / "csv"));
  TimelineView view;
  view.set_session(session);
  const auto png = QString::fromStdString(folder.file("view.png"));
  ASSERT_TRUE(view.render_image({800, 400}).save(png, "PNG"));
  EXPECT_GT(testing::image_stats(QImage(png)).distinct_colors, 8);
}

}  // namespace
}  // namespace gpuprof::gui
