// The app on traces recorded by others (../shared/data/external): Kineto JSON
// from PyTorch, all ranks of a DLRM job as one job, and an Nsight Systems export.
#include <gtest/gtest.h>

#include <QDockWidget>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <set>

#include "gpuprof/analysis/step_pattern.hpp"
#include "gpuprof/gui/idle_details.hpp"
#include "gpuprof/gui/main_window.hpp"
#include "gpuprof/gui/prediction_panel.hpp"
#include "gpuprof/gui/rank_marks.hpp"
#include "gpuprof/gui/timeline_painter.hpp"
#include "gpuprof/gui/step_timeline_chart.hpp"
#include "gpuprof/predict/prediction_writers.hpp"
#include "gpuprof/gui/timeline_layout.hpp"
#include "gpuprof/idle/interval_host_activity.hpp"
#include "gpuprof/gui/timeline_view.hpp"
#include "export_comparison.hpp"
#include "gui_fixtures.hpp"
#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

namespace fs = std::filesystem;
constexpr int kLoadTimeoutMs = 300'000;  // a safety net for a hung loader, not a performance check

QStringList external_files(const std::string& folder, const std::string& suffix) {
  QStringList files;
  const fs::path root = gpuprof::testing::external_data_dir() / folder;
  for (const auto& entry : fs::directory_iterator(root)) {
    if (entry.path().string().ends_with(suffix)) files << QString::fromStdString(entry.path().string());
  }
  files.sort();
  return files;
}

// The host activity under every batch gap (the first 100 of each rank) adds up: what the events cover of
// the gap is at most the gap and at most their summed overlaps; each group overlaps at most its count of gaps.
void check_gap_details(const Session& session) {
  const analysis::StepPattern steps(session.step_pattern);
  std::size_t checked = 0;
  for (std::size_t index = 0; index < session.ranks.size(); ++index) {
    const auto& rank = *session.ranks[index];
    const auto summary = std::find_if(session.job.ranks.begin(), session.job.ranks.end(),
                                      [&](const auto& entry) { return entry.analysis.rank == rank.analysis.rank; });
    ASSERT_NE(summary, session.job.ranks.end());
    for (std::size_t g = 0; g < rank.analysis.gaps.size() && g < 100; ++g) {
      const auto& gap = rank.analysis.gaps[g];
      const auto length = gap.end_ns - gap.start_ns;
      const auto activity = idle::host_activity_during(rank.model, summary->host_activity.threads, steps, gap.start_ns,
                                                       gap.end_ns, SIZE_MAX);
      std::int64_t overlaps = 0;
      for (const auto& group : activity.groups) {
        EXPECT_LE(group.overlap_ns, group.count * length) << group.name;
        overlaps += group.overlap_ns;
      }
      EXPECT_LE(activity.covered_ns, length);
      EXPECT_LE(activity.covered_ns, overlaps);
      EXPECT_EQ(activity.groups_left_out, 0);
      const auto selection = idle_selection_at(session, index, gap.device, gap.start_ns);
      ASSERT_TRUE(selection);
      EXPECT_TRUE(selection->gap);
      EXPECT_NE(describe_idle_selection(session, *selection).find("Cause: batch gap"), std::string::npos);
      ++checked;
    }
  }
  ::testing::Test::RecordProperty("gaps_checked", static_cast<int>(checked));
}

// With the last rank pinned and the first rank's host threads collapsed, every row is shown once, the pinned
// ones first and all the last rank's, and nothing of the first rank's threads.
void check_groups(const Session& session) {
  const std::size_t last = session.ranks.size() - 1;
  LayoutOptions options;
  options.groups.pinned = {{last, GroupKind::rank}};
  options.groups.collapsed = {{0, GroupKind::host_threads}};
  const auto layout = layout_timeline(session, options);
  const auto plain = layout_timeline(session);
  std::set<std::pair<std::size_t, std::size_t>> seen;
  std::size_t pinned = 0, hidden_threads = 0;
  for (const auto& place : layout.rows) {
    if (place.row) {
      EXPECT_TRUE(seen.insert({place.rank, *place.row}).second);
    }
    EXPECT_EQ(place.pinned, place.rank == last);
    pinned += place.pinned;
  }
  for (const auto& place : plain.rows) {
    hidden_threads += place.rank == 0 && place.row &&
                      session.ranks[0]->timeline.rows[*place.row].kind == RowKind::host_thread;
  }
  EXPECT_EQ(layout.rows.size() + hidden_threads, plain.rows.size());
  EXPECT_GT(pinned, 0u);
  EXPECT_EQ(layout.rows.front().heads, (GroupKey{last, GroupKind::rank}));
}

// Opens the files as one job and checks what a person would look at first.
void open_and_check(const QStringList& files, std::size_t ranks, const QString& screenshot) {
  MainWindow window;
  window.resize(1600, 1000);
  window.show();
  window.open_files(files);
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window.loading(); }, kLoadTimeoutMs));
  ASSERT_TRUE(window.session()) << window.error_text().toStdString();
  EXPECT_TRUE(window.error_text().isEmpty()) << window.error_text().toStdString();
  EXPECT_EQ(window.session()->ranks.size(), ranks);
  EXPECT_GT(window.kernel_proxy()->rowCount(), 0);
  EXPECT_GT(window.session()->ranks[0]->model.kernels.size(), 0U);
  check_gap_details(*window.session());
  check_groups(*window.session());
  QApplication::processEvents();
  testing::save_and_check(window.grab().toImage(), screenshot);
  testing::save_and_check(window.timeline()->render_image({1600, 900}), screenshot + QStringLiteral("_timeline"));
}

class RealTraces : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpuprof::testing::external_data_dir().empty()) GTEST_SKIP() << "../shared/data/external is absent";
  }
};

TEST_F(RealTraces, OpensAPyTorchProfilerTraceWithItsSteps) {
  const QStringList files = external_files("kineto-resnet50", "resnet50_num_workers_0.pt.trace.json.gz");
  ASSERT_EQ(files.size(), 1);
  open_and_check(files, 1, QStringLiteral("real_kineto_resnet50"));
}

TEST_F(RealTraces, OpensEightDlrmRanksAsOneJob) {
  const QStringList files = external_files("dlrm-8rank", ".json.gz");
  ASSERT_EQ(files.size(), 8);
  open_and_check(files, 8, QStringLiteral("real_dlrm_8_ranks"));
}

// Issue 39: the DLRM job's straggler was marked "r7 GPU 0 · straggler, 3.26 ms l…" in the label column. At
// 1280x800 and 1920x1080, compact (as 8 ranks open) and not, every label there is whole, the marked ranks
// say so in it, and each marked rank's header note (as wide as the timeline) has the whole mark.
TEST_F(RealTraces, TheDlrmJobsRankMarksAreWholeInTheLabelColumn) {
  std::vector<std::string> paths;
  for (const auto& file : external_files("dlrm-8rank", ".json.gz")) paths.push_back(file.toStdString());
  ASSERT_EQ(paths.size(), 8u);
  const std::atomic<bool> cancel{false};
  const std::shared_ptr<const Session> session = load_session(paths, {}, cancel);
  std::size_t marked = 0;
  for (std::size_t index = 0; index < session->ranks.size(); ++index) {
    if (!rank_mark(*session, index).label.empty()) ++marked;
  }
  ASSERT_GT(marked, 0u) << "the job analysis names a slowest rank or a straggler";
  for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
    for (const bool compact : {true, false}) {
      SCOPED_TRACE(std::to_string(size.width()) + (compact ? " compact" : ""));
      const auto view = testing::shown_timeline(session, size, compact);
      EXPECT_EQ(testing::elided_row_labels(*view), "");
      std::size_t shown_marks = 0;
      const auto& layout = view->layout();
      // Every row's label, also those below the screen (a rank header of the full layout).
      for (const auto& label : label_column_texts(*session, layout, view->scroll_y(), false, 0, 1 << 28)) {
        if (label.text.contains(QStringLiteral("straggler")) || label.text.contains(QStringLiteral("slowest"))) {
          ++shown_marks;
        }
      }
      // Compact rows are one a GPU; rank headers one a rank: either way each marked rank is marked once or more.
      EXPECT_GE(shown_marks, marked);
      testing::save_and_check(view->render_image(size), QStringLiteral("real_dlrm_8_ranks_labels_%1%2")
                                                            .arg(size.width())
                                                            .arg(compact ? QStringLiteral("_compact") : QString()));
    }
  }
}

TEST_F(RealTraces, OpensAnNsightSystemsExport) {
  const QStringList files = external_files("nsys-sqlite", "nvfuser_h200_schema3.17.sqlite");
  ASSERT_EQ(files.size(), 1);
  open_and_check(files, 1, QStringLiteral("real_nsys_h200"));
}

// The app's exported report of real traces (a PyTorch trace, the DLRM job, an Nsight Systems export) is
// `gpuprof report`'s, byte for byte, in HTML and CSV.
TEST_F(RealTraces, TheExportedReportIsGpuprofReports) {
  const std::vector<QStringList> inputs{
      external_files("kineto-resnet50", "resnet50_num_workers_0.pt.trace.json.gz"),
      external_files("dlrm-8rank", ".json.gz"), external_files("nsys-sqlite", "nvfuser_h200_schema3.17.sqlite")};
  for (const auto& files : inputs) {
    ASSERT_FALSE(files.isEmpty());
    std::vector<std::string> traces;
    for (const auto& file : files) traces.push_back(file.toStdString());
    SCOPED_TRACE(traces.front());
    testing::expect_export_equals_report(GPUPROF_BINARY, traces, "");
  }
}

// The Prediction dock on a PyTorch trace that states its gradient size (AccumulateGrad shapes): the same
// prediction as `gpuprof predict` on the same file, and a replayed step with the inserted all-reduces.
TEST_F(RealTraces, ThePredictionDockGivesWhatGpuprofPredictGives) {
  const QStringList files = external_files("kineto-resnet50", "resnet50_num_workers_0.pt.trace.json.gz");
  ASSERT_EQ(files.size(), 1);
  MainWindow window;
  window.resize(1280, 800);
  window.show();
  window.open_files(files);
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window.loading(); }, kLoadTimeoutMs));
  ASSERT_TRUE(window.session()) << window.error_text().toStdString();
  auto& panel = *window.prediction();
  for (auto* dock : window.docks())
    if (dock->widget()->isAncestorOf(&panel) || dock->widget() == &panel) dock->raise();
  predict::PredictRequest request;
  request.gpus = "4";
  request.link = "nvlink3";
  panel.set_request(request);
  ASSERT_NO_FATAL_FAILURE(testing::press_predict(panel));  // as a user presses it, in the dock at 1280x800
  ASSERT_TRUE(panel.prediction()) << panel.error_text().toStdString();
  const auto cli = gpuprof::testing::run_process(
      {GPUPROF_BINARY, "predict", files.front().toStdString(), "--gpus", "4", "--link", "nvlink3", "--format", "json"});
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  EXPECT_EQ(predict::render_prediction(report::Format::json, *panel.prediction()), cli.out);
  EXPECT_EQ(panel.prediction()->gradient_bytes, 102'228'128);
  const auto& replayed = panel.step_chart()->replayed();
  EXPECT_TRUE(std::any_of(replayed.lanes.begin(), replayed.lanes.end(),
                          [](const auto& lane) { return lane.label == "all-reduces (inserted)"; }));
  // Work that overlaps the step is drawn; each lane's events are in order, none after the step's end by more
  // than one event's length (a lane is one stream).
  for (const auto* step : {&panel.step_chart()->measured(), &replayed}) {
    ASSERT_FALSE(step->lanes.empty());
    for (const auto& lane : step->lanes) {
      for (std::size_t i = 0; i < lane.events.size(); ++i) {
        EXPECT_LE(lane.events[i].start_ns, lane.events[i].end_ns);
        EXPECT_LT(lane.events[i].start_ns, step->step_ns);
        EXPECT_GT(lane.events[i].end_ns, 0);
        if (i > 0) {
          EXPECT_LE(lane.events[i - 1].start_ns, lane.events[i].start_ns);
        }
      }
    }
  }
}

}  // namespace
}  // namespace gpuprof::gui
