// The app's Prediction panel (issue 29, item 4): every figure it shows is the one `gpuprof predict` gives with
// the same options and traces (the second one at the per-GPU batch, several GPU counts), the table, the
// waterfall and the step timelines are legible at the two common screen widths, a bad request or second trace
// is the CLI's one line, and a job of several ranks is refused with the reason.

#include "gpuprof/gui/prediction_panel.hpp"

#include <gtest/gtest.h>

#include <QApplication>
#include <QHeaderView>
#include <QPushButton>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTableView>
#include <QTest>
#include <string>
#include <vector>

#include "gpuprof/gui/models/prediction_rows.hpp"
#include "gpuprof/gui/step_timeline_chart.hpp"
#include "gpuprof/gui/waterfall_chart.hpp"
#include "gpuprof/predict/link_profile.hpp"
#include "gpuprof/predict/prediction_writers.hpp"
#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gui_fixtures.hpp"
#include "wrapped_text.hpp"
#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

using gpuprof::testing::TemporaryFolder;
using testing::joined;

// The Prediction dock's size in the window at 1280x800 (DockLayout checks the dock itself there): the panel
// is pressed as a user presses it, so it is shown at a size a user sees.
constexpr QSize kDockSize(560, 429);

predict::PredictRequest pcie_request() {
  predict::PredictRequest request;
  request.gpus = "2";
  request.link = "pcie3";
  request.grad_bytes = 100'000'000;
  return request;
}

// The request of the widths test and of the two-trace comparison: strong scaling to three GPU counts.
predict::PredictRequest strong_request() {
  auto request = pcie_request();
  request.gpus = "2,4,8";
  request.scaling = "strong";
  return request;
}

// The CLI with the request's options, and the per-GPU-batch trace as its second argument when there is one.
gpuprof::testing::ProcessResult run_cli(const std::string& trace, const predict::PredictRequest& request,
                                        const std::string& format, const std::string& per_gpu_trace = {}) {
  std::vector<std::string> command{GPUPROF_BINARY, "predict", trace};
  if (!per_gpu_trace.empty()) command.push_back(per_gpu_trace);
  command.insert(command.end(), {"--gpus", request.gpus, "--strategy", request.strategy, "--scaling", request.scaling,
                                 "--allreduce", request.allreduce, "--format", format});
  // Left out when not chosen, as a user leaves them out: the command line's defaults are the panel's.
  for (const auto& [option, value] : {std::pair{"--link", &request.link}, {"--sync", &request.sync},
                                      {"--topology", &request.topology}})
    if (!value->empty()) command.insert(command.end(), {option, *value});
  if (request.grad_bytes) command.insert(command.end(), {"--grad-bytes", std::to_string(*request.grad_bytes)});
  if (request.split_bytes) command.insert(command.end(), {"--split-bytes", std::to_string(*request.split_bytes)});
  return gpuprof::testing::run_process(command);
}

// Sets the request in the controls, presses Predict as a user does and waits for the result or the error.
void predict_with(PredictionPanel& panel, const predict::PredictRequest& request) {
  panel.set_request(request);
  if (!panel.isVisible()) {
    panel.resize(kDockSize);
    panel.show();
  }
  ASSERT_NO_FATAL_FAILURE(testing::press_predict(panel));
}

// Every line the panel shows is a line of the text output, read with its wrapped lines joined (the CLI
// continues prose past 120 columns on lines indented by four spaces).
void expect_lines_of(const QString& shown, const std::string& wrapped_text) {
  const auto text = gpuprof::testing::joined_wrapped_lines(wrapped_text);
  for (const auto& line : shown.split(QLatin1Char('\n'))) {
    const auto line_text = line.toStdString();
    EXPECT_NE(text.find(line_text), std::string::npos) << "shown but not in gpuprof predict: " << line_text;
  }
}

std::string cell(const QTableView& table, int row, int column) {
  return table.model()->index(row, column).data().toString().toStdString();
}

// Every way the table hides something, one line each: a figure wider than its column, a header wider than
// its column, a row below the table's bottom. The verdict is elided to one line by design: the selected row's
// whole verdict is in the details under the table.
std::string table_problems(const QTableView& table) {
  std::vector<std::string> problems;
  const auto metrics = table.fontMetrics();
  // A cell's text sits inside the focus frame's margin on both sides (QCommonStyle's item view text margin).
  const int margin = 2 * (table.style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, &table) + 1);
  const auto* header = table.horizontalHeader();
  for (int column = 0; column < table.model()->columnCount(); ++column) {
    const auto title = table.model()->headerData(column, Qt::Horizontal).toString();
    if (metrics.horizontalAdvance(title) + margin > header->sectionSize(column))
      problems.push_back("header clipped: " + title.toStdString());
  }
  for (int row = 0; row < table.model()->rowCount(); ++row) {
    for (int column = 0; column < kPredictionVerdictColumn; ++column) {
      const auto rect = table.visualRect(table.model()->index(row, column));
      const auto text = table.model()->index(row, column).data().toString();
      const auto needed = metrics.boundingRect(QRect(0, 0, rect.width() - margin, 100'000),
                                               Qt::TextWordWrap | Qt::AlignLeft, text);
      if (needed.width() > rect.width() - margin || needed.height() > rect.height())
        problems.push_back("cell clipped: " + text.toStdString());
      if (!table.viewport()->rect().contains(rect)) problems.push_back("cell outside the table: " + text.toStdString());
    }
  }
  return testing::joined(problems);
}

class PredictionPanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = folder_.file("one_gpu.sqlite");
    testing::write_trace(trace_, 1, 12);
    // The same program at half the batch: shorter kernels, as a 1-GPU run at the per-GPU batch records them.
    per_gpu_ = folder_.file("per_gpu_batch.sqlite");
    synthetic::SynthOptions options;
    options.devices = 1;
    options.steps = 12;
    options.kernels_per_step = 12;
    options.kernel_us = 35;
    options.batch_size = 32;
    options.seed = 2;
    options.force = true;
    synthetic::write_synthetic_trace(per_gpu_, options);
  }
  TemporaryFolder folder_;
  std::string trace_, per_gpu_;
};

TEST_F(PredictionPanelTest, ShowsTheFiguresOfGpuprofPredictWithTheSameOptions) {
  PredictionPanel panel;
  panel.set_session(testing::load(trace_));
  for (const auto& strategy : {"data-parallel", "host-staged"}) {
    auto request = pcie_request();
    request.strategy = strategy;
    request.scaling = "strong";
    request.allreduce = "after-backward";
    predict_with(panel, request);
    ASSERT_TRUE(panel.prediction()) << panel.error_text().toStdString();
    // The same prediction, to the last digit of every figure the JSON output holds.
    const auto json = run_cli(trace_, request, "json");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    EXPECT_EQ(predict::render_prediction(report::Format::json, *panel.prediction()), json.out) << strategy;
    const auto text = run_cli(trace_, request, "text");
    ASSERT_EQ(text.exit_code, 0) << text.err;
    expect_lines_of(panel.result_text(), text.out);
    const auto& row = panel.prediction()->rows.front();
    EXPECT_TRUE(panel.result_text().contains(QString::fromStdString(predict::row_headline(row))));
    EXPECT_TRUE(panel.result_text().contains(QString::fromStdString(row.verdict)));
  }
}

// The app opens a trace whose launch details break the rules without them (docs/app.md, "Opening"); the
// command line, which loads them, leaves those kernels out. The panel reads such a trace as the command does.
TEST_F(PredictionPanelTest, ATraceOpenedWithoutItsLaunchDetailsIsPredictedAsGpuprofPredictReadsIt) {
  {
    sqlite::Database database(trace_, sqlite::OpenMode::read_write);
    database.execute("UPDATE kernels SET block_x = 1 << 40 WHERE rowid % 5 = 0");
  }
  const auto session = testing::load(trace_);
  ASSERT_FALSE(session->ranks[0]->launch_details_problem.empty());
  PredictionPanel panel;
  panel.set_session(session);
  const auto request = pcie_request();
  predict_with(panel, request);
  ASSERT_TRUE(panel.prediction()) << panel.error_text().toStdString();
  const auto json = run_cli(trace_, request, "json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(predict::render_prediction(report::Format::json, *panel.prediction()), json.out);
}

TEST_F(PredictionPanelTest, ShowsTheFiguresOfGpuprofPredictWithTheSecondTraceAndSeveralGpuCounts) {
  PredictionPanel panel;
  panel.resize(kDockSize);
  panel.show();
  panel.set_session(testing::load(trace_));
  panel.set_per_gpu_trace(QString::fromStdString(per_gpu_));
  EXPECT_EQ(panel.per_gpu_trace_label(), QStringLiteral("per_gpu_batch.sqlite"));
  EXPECT_TRUE(panel.per_gpu_clear_button()->isEnabled());
  const auto request = strong_request();
  predict_with(panel, request);
  ASSERT_TRUE(panel.prediction()) << panel.error_text().toStdString();
  // `gpuprof predict TRACE PER_GPU_TRACE --gpus 2,4,8`, to the last digit of every figure the JSON output holds.
  const auto json = run_cli(trace_, request, "json", per_gpu_);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(predict::render_prediction(report::Format::json, *panel.prediction()), json.out);
  const auto& prediction = *panel.prediction();
  EXPECT_EQ(prediction.per_gpu_trace, per_gpu_);
  ASSERT_EQ(prediction.rows.size(), 3u);
  const auto text = run_cli(trace_, request, "text", per_gpu_);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  // One row per GPU count, in the order given, each cell in the text output's words.
  const auto& table = *panel.rows_table();
  ASSERT_EQ(table.model()->rowCount(), 3);
  for (int i = 0; i < 3; ++i) {
    const auto& row = prediction.rows[static_cast<std::size_t>(i)];
    EXPECT_EQ(row.gpus, std::vector<int>({2, 4, 8})[static_cast<std::size_t>(i)]);
    const auto figures = predict::row_figures(row);
    EXPECT_EQ(cell(table, i, 0), figures.gpus);
    EXPECT_EQ(cell(table, i, 1), figures.step);
    EXPECT_EQ(cell(table, i, 2), figures.band);
    EXPECT_EQ(cell(table, i, 3), figures.speedup);
    EXPECT_EQ(cell(table, i, 4), figures.efficiency);
    EXPECT_EQ(cell(table, i, kPredictionVerdictColumn), row.verdict);
    const auto headline = predict::row_headline(row);
    EXPECT_NE(text.out.find("\n" + headline + "\n"), std::string::npos) << headline;
    for (const auto* figure : {&figures.step, &figures.band, &figures.speedup, &figures.efficiency})
      EXPECT_NE(headline.find(*figure), std::string::npos) << *figure;
    EXPECT_NE(gpuprof::testing::joined_wrapped_lines(text.out).find("  " + row.verdict + "\n"), std::string::npos)
        << row.verdict;
  }
  // The charts show the first GPU count until another row is selected; then that one's.
  EXPECT_EQ(panel.selected_row(), 0u);
  EXPECT_EQ(panel.waterfall()->term_count(), prediction.rows[0].terms.size());
  EXPECT_EQ(panel.step_chart()->replayed().step_ns, prediction.rows[0].replayed_step.step_ns);
  expect_lines_of(panel.result_text(), text.out);
  EXPECT_TRUE(panel.result_text().contains(QStringLiteral("per-GPU batch: ") + QString::fromStdString(per_gpu_)));
  const auto third = table.visualRect(table.model()->index(2, 0)).center();
  QTest::mouseClick(panel.rows_table()->viewport(), Qt::LeftButton, {}, third);
  EXPECT_EQ(panel.selected_row(), 2u);
  EXPECT_EQ(panel.waterfall()->term_count(), prediction.rows[2].terms.size());
  EXPECT_EQ(panel.step_chart()->replayed().step_ns, prediction.rows[2].replayed_step.step_ns);
  EXPECT_TRUE(panel.result_text().startsWith(QString::fromStdString(predict::row_headline(prediction.rows[2]))));
  expect_lines_of(panel.result_text(), text.out);
  // Cleared, the second trace is no longer read: the open trace alone, as `gpuprof predict TRACE`.
  ASSERT_NO_FATAL_FAILURE(testing::click_as_user(*panel.per_gpu_clear_button()));
  EXPECT_TRUE(panel.per_gpu_trace().isEmpty());
  EXPECT_FALSE(panel.per_gpu_clear_button()->isEnabled());
  predict_with(panel, request);
  ASSERT_TRUE(panel.prediction()) << panel.error_text().toStdString();
  const auto alone = run_cli(trace_, request, "json");
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_EQ(predict::render_prediction(report::Format::json, *panel.prediction()), alone.out);
  EXPECT_TRUE(panel.prediction()->per_gpu_trace.empty());
}

// --sync and --topology (issue 37) with the PCIe presets measured for them: the panel's prediction is the
// command line's to the last digit, and says the synchronisation and the topology file as it does.
TEST_F(PredictionPanelTest, ShowsTheFiguresOfGpuprofPredictWithSyncAndTopology) {
  const auto topology = folder_.file("topo.txt");
  gpuprof::testing::write_file(topology, "\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tPHB\t0-9\nGPU1\tPHB\t X \t0-9\n");
  PredictionPanel panel;
  panel.set_session(testing::load(trace_));
  struct Case {
    std::string link, sync, topology;
  };
  for (const auto& [link, sync, topology_file] :
       {Case{"pcie3-x1", "ps-cpu", topology}, Case{"pcie3-m60", "ps-gpu", topology},
        Case{"pcie3-p2p", "ring-allreduce", topology}, Case{"pcie3-x1", "", ""}, Case{"pcie3", "ps-gpu", ""}}) {
    SCOPED_TRACE(link + " " + sync + " " + topology_file);
    auto request = pcie_request();
    request.link = link;
    request.sync = sync;
    request.topology = topology_file;
    predict_with(panel, request);
    // What the controls hold is what was asked: nothing dropped on the way.
    EXPECT_EQ(panel.request().link, link);
    EXPECT_EQ(panel.request().sync, sync);
    EXPECT_EQ(panel.request().topology, topology_file);
    ASSERT_TRUE(panel.prediction()) << panel.error_text().toStdString();
    const auto json = run_cli(trace_, request, "json");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const auto shown = predict::render_prediction(report::Format::json, *panel.prediction());
    EXPECT_EQ(shown, json.out);
    if (!sync.empty()) EXPECT_NE(shown.find("\"sync\":\"" + sync + "\""), std::string::npos) << shown;
    if (!topology_file.empty())
      EXPECT_NE(shown.find("\"topology\":\"" + topology_file + "\""), std::string::npos) << shown;
    const auto text = run_cli(trace_, request, "text");
    ASSERT_EQ(text.exit_code, 0) << text.err;
    expect_lines_of(panel.result_text(), text.out);
  }
  // A topology of two GPUs for four, a file that is not there, an unknown synchronisation: the CLI's one line.
  for (const auto& [gpus, sync, topology_file] :
       {Case{"4", "ps-cpu", topology}, Case{"2", "", folder_.file("missing.txt")}, Case{"2", "ps-tpu", ""}}) {
    auto request = pcie_request();
    request.gpus = gpus;
    request.sync = sync;
    request.topology = topology_file;
    predict_with(panel, request);
    EXPECT_FALSE(panel.prediction()) << sync << " " << topology_file;
    const auto refused = run_cli(trace_, request, "text");
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_EQ("gpuprof: " + panel.error_text().toStdString() + "\n", refused.err);
  }
}

// Where the band straddles one GPU the call is uncertain, and the panel shows the centre's lean beside it (issue
// 37) in `gpuprof predict`'s words: its side, or too close to call within the 1-GPU step's variability. The
// variables on GPU 0 over 7gforce's x1 risers, gradients whose exchange is about as long as the step.
TEST_F(PredictionPanelTest, AnUncertainCallShowsTheCentresLeanAsGpuprofPredictGivesIt) {
  PredictionPanel panel;
  panel.set_session(testing::load(trace_));
  auto request = pcie_request();
  request.link = "pcie3-x1";
  request.sync = "ps-gpu";
  request.allreduce = "after-backward";
  predict_with(panel, request);
  ASSERT_TRUE(panel.prediction()) << panel.error_text().toStdString();
  const double step = panel.prediction()->measured_step_ns;
  const auto link = predict::link_preset("pcie3-x1");
  std::vector<predict::Lean> leans;
  for (const double exchange_steps : {0.95, 1.3}) {
    // ps-gpu on 2 GPUs: two copies through GPU 0's link.
    request.grad_bytes = static_cast<std::int64_t>((exchange_steps * step / 2 - link.peer_latency_ns) * link.peer_gbps);
    predict_with(panel, request);
    ASSERT_TRUE(panel.prediction()) << panel.error_text().toStdString();
    const auto json = run_cli(trace_, request, "json");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    EXPECT_EQ(predict::render_prediction(report::Format::json, *panel.prediction()), json.out);
    const auto& row = panel.prediction()->rows.front();
    ASSERT_EQ(row.call, predict::Call::uncertain) << row.verdict;
    leans.push_back(row.lean);
    EXPECT_NE(json.out.find("\"lean\":\"" + std::string(predict::to_string(row.lean)) + "\""), std::string::npos);
    const auto words = row.lean == predict::Lean::too_close ? std::string("too close to call")
                                                             : "its centre leans " + std::string(to_string(row.lean));
    EXPECT_NE(row.verdict.find(words), std::string::npos) << row.verdict;
    EXPECT_EQ(cell(*panel.rows_table(), 0, kPredictionVerdictColumn), row.verdict);
    EXPECT_TRUE(panel.result_text().contains(QString::fromStdString(row.verdict)));
    const auto text = run_cli(trace_, request, "text");
    ASSERT_EQ(text.exit_code, 0) << text.err;
    expect_lines_of(panel.result_text(), text.out);
  }
  // The exchange of 0.95 steps leaves the centre within the trace's variability of 1x; 1.3 steps lean no faster.
  EXPECT_EQ(leans, (std::vector<predict::Lean>{predict::Lean::too_close, predict::Lean::no_faster}));
}

// Link left at its default: chosen from the trace's GPU by the analyzer, as `gpuprof predict` without --link
// chooses it (or refuses with the same line where the GPU's name says nothing).
TEST_F(PredictionPanelTest, TheDefaultLinkIsTheCommandLinesDefault) {
  PredictionPanel panel;
  panel.set_session(testing::load(trace_));
  auto request = pcie_request();
  request.link.clear();
  predict_with(panel, request);
  EXPECT_TRUE(panel.request().link.empty());
  const auto cli = run_cli(trace_, request, panel.prediction() ? "json" : "text");
  if (panel.prediction()) {
    ASSERT_EQ(cli.exit_code, 0) << cli.err;
    EXPECT_EQ(predict::render_prediction(report::Format::json, *panel.prediction()), cli.out);
  } else {
    EXPECT_EQ(cli.exit_code, 2);
    EXPECT_EQ("gpuprof: " + panel.error_text().toStdString() + "\n", cli.err);
  }
}

TEST_F(PredictionPanelTest, ABadSecondTraceOrGpuListIsTheOneLineTheCliPrints) {
  PredictionPanel panel;
  panel.set_session(testing::load(trace_));
  const auto missing = folder_.file("none.sqlite");
  panel.set_per_gpu_trace(QString::fromStdString(missing));
  predict_with(panel, strong_request());
  EXPECT_FALSE(panel.prediction());
  const auto cli = run_cli(trace_, strong_request(), "text", missing);
  EXPECT_EQ(cli.exit_code, 2);
  EXPECT_EQ("gpuprof: " + panel.error_text().toStdString() + "\n", cli.err);
  EXPECT_TRUE(panel.error_text().contains(QString::fromStdString(missing)));
  // GPU counts the analyzer's parser refuses, read by it and not by the panel.
  for (const auto* gpus : {"2,,8", "2, 4", "0", "two"}) {
    panel.set_per_gpu_trace({});
    auto request = strong_request();
    request.gpus = gpus;
    predict_with(panel, request);
    EXPECT_FALSE(panel.prediction()) << gpus;
    const auto refused = run_cli(trace_, request, "text");
    EXPECT_EQ(refused.exit_code, 2) << gpus;
    EXPECT_EQ("gpuprof: " + panel.error_text().toStdString() + "\n", refused.err) << gpus;
  }
  // Another open forgets the second trace: it was recorded for the trace open before.
  panel.set_per_gpu_trace(QString::fromStdString(per_gpu_));
  panel.set_session(testing::load(trace_));
  EXPECT_TRUE(panel.per_gpu_trace().isEmpty());
  EXPECT_FALSE(panel.per_gpu_clear_button()->isEnabled());
}

TEST_F(PredictionPanelTest, TheWaterfallAddsUpToThePredictedStepAndTheReplayShowsTheInsertedWork) {
  PredictionPanel panel;
  panel.set_session(testing::load(trace_));
  predict_with(panel, pcie_request());
  ASSERT_TRUE(panel.prediction()) << panel.error_text().toStdString();
  const auto& prediction = *panel.prediction();
  const auto& row = prediction.rows.front();
  const auto layout = panel.waterfall()->current_layout();
  ASSERT_EQ(panel.waterfall()->term_count(), row.terms.size());
  ASSERT_EQ(layout.bars.size(), row.terms.size() + 2);
  // The terms, largest first, in the order the CLI prints them.
  for (std::size_t i = 0; i < row.terms.size(); ++i)
    EXPECT_TRUE(layout.bars[i + 1].tooltip.startsWith(QString::fromStdString(row.terms[i].name))) << i;
  const auto& steps = *panel.step_chart();
  ASSERT_FALSE(steps.measured().lanes.empty());
  EXPECT_GT(steps.measured().step_ns, 0);
  EXPECT_EQ(steps.measured().step, steps.replayed().step);
  // The all-reduces the prediction inserted have a lane of their own; the recorded streams keep theirs.
  std::size_t inserted = 0;
  for (const auto& lane : steps.replayed().lanes)
    for (const auto& event : lane.events)
      if (event.kind == predict::OpKind::inserted) {
        ++inserted;
        EXPECT_EQ(lane.label, "all-reduces (inserted)");
      }
  EXPECT_GT(inserted, 0u);
  for (const auto& lane : steps.measured().lanes)
    for (const auto& event : lane.events) EXPECT_NE(event.kind, predict::OpKind::inserted);
  // The replica waits for its gradients: its step is longer than the measured one over PCIe 3.
  EXPECT_GT(steps.replayed().step_ns, steps.measured().step_ns);
}

TEST_F(PredictionPanelTest, ABadRequestIsTheOneLineTheCliPrints) {
  PredictionPanel panel;
  panel.set_session(testing::load(trace_));
  auto request = pcie_request();
  request.grad_bytes.reset();
  predict_with(panel, request);
  EXPECT_FALSE(panel.prediction());
  const auto cli = run_cli(trace_, request, "text");
  EXPECT_EQ(cli.exit_code, 2);
  EXPECT_EQ("gpuprof: " + panel.error_text().toStdString() + "\n", cli.err);
  EXPECT_TRUE(panel.error_text().contains(QString::fromStdString(trace_)));
  // The controls stay usable: the same trace with the size given predicts.
  predict_with(panel, pcie_request());
  EXPECT_TRUE(panel.prediction());
  EXPECT_TRUE(panel.error_text().isEmpty());
}

TEST_F(PredictionPanelTest, AJobOfSeveralRanksIsRefusedWithTheReason) {
  const auto second = folder_.file("second.sqlite");
  testing::write_trace(second, 1, 12);
  const std::atomic<bool> cancel{false};
  PredictionPanel panel;
  panel.set_session(load_session({trace_, second}, {}, cancel));
  EXPECT_FALSE(panel.predict_button()->isEnabled());
  EXPECT_TRUE(panel.error_text().contains(QStringLiteral("reads a 1-GPU trace"))) << panel.error_text().toStdString();
  panel.start_prediction();
  EXPECT_FALSE(panel.busy());
  EXPECT_FALSE(panel.prediction());
  // Opening a 1-GPU trace again enables it.
  panel.set_session(testing::load(trace_));
  EXPECT_TRUE(panel.predict_button()->isEnabled());
  EXPECT_TRUE(panel.error_text().isEmpty());
}

// A dock beside the timeline is narrower than any screen: every figure and header stays whole, each row is
// one line (wrapped verdicts made rows ten lines tall), and the selected row's verdict is whole below.
TEST_F(PredictionPanelTest, InANarrowDockEachRowIsOneLineAndTheVerdictIsWholeBelow) {
  PredictionPanel panel;
  panel.resize(640, 900);
  panel.show();
  panel.set_session(testing::load(trace_));
  predict_with(panel, strong_request());
  ASSERT_TRUE(panel.prediction()) << panel.error_text().toStdString();
  QApplication::processEvents();
  const auto& table = *panel.rows_table();
  EXPECT_EQ(table_problems(table), "");
  for (int row = 0; row < table.model()->rowCount(); ++row)
    EXPECT_LT(table.rowHeight(row), 2 * table.fontMetrics().height()) << "row " << row;
  for (std::size_t row = 0; row < panel.prediction()->rows.size(); ++row) {
    panel.select_row(row);
    EXPECT_TRUE(panel.result_text().contains(QString::fromStdString(panel.prediction()->rows[row].verdict)))
        << "row " << row;
  }
  const QRect placed(table.mapTo(&panel, QPoint(0, 0)), table.size());
  EXPECT_LE(placed.right(), panel.rect().right());
}

class PredictionPanelWidths : public PredictionPanelTest, public ::testing::WithParamInterface<int> {};

TEST_P(PredictionPanelWidths, WaterfallAndStepTimelinesAreLegible) {
  const int width = GetParam();
  PredictionPanel panel;
  panel.resize(width, width * 9 / 16);
  panel.show();
  panel.set_session(testing::load(trace_));
  panel.set_per_gpu_trace(QString::fromStdString(per_gpu_));
  predict_with(panel, strong_request());
  ASSERT_TRUE(panel.prediction()) << panel.error_text().toStdString();
  QApplication::processEvents();
  // Every control whole and apart; one row per GPU count, every figure and verdict whole, the table inside
  // the panel.
  EXPECT_EQ(joined(testing::control_problems(panel)), "");
  const auto* table = panel.rows_table();
  EXPECT_EQ(table->model()->rowCount(), 3);
  EXPECT_EQ(table_problems(*table), "");
  EXPECT_FALSE(table->horizontalScrollBar()->isVisible());
  const auto* waterfall = panel.waterfall();
  const auto bars = waterfall->current_layout();
  std::vector<QRect> bar_rects;
  for (const auto& bar : bars.bars) bar_rects.push_back(bar.rect);
  EXPECT_EQ(
      joined(testing::text_legibility_problems(bars.texts, bar_rects, waterfall->rect(), waterfall->fontMetrics())),
      "");
  auto* steps = panel.step_chart();
  const auto lanes = steps->current_layout();
  EXPECT_EQ(lanes.lanes.size(), steps->measured().lanes.size() + steps->replayed().lanes.size());
  auto problems = testing::text_legibility_problems(lanes.texts, lanes.lanes, steps->rect(), steps->fontMetrics());
  for (const auto& lane : lanes.lanes)
    if (!steps->rect().contains(lane)) problems.push_back("lane outside the chart");
  EXPECT_EQ(joined(problems), "");
  EXPECT_GE(lanes.tick_x.size(), 3u);  // an axis one can read times off
  // The table and both charts lie inside the panel's width: nothing is cut off at the right.
  const std::vector<const QWidget*> placed_widgets{waterfall, steps, table};
  for (const QWidget* chart : placed_widgets) {
    const QRect placed(chart->mapTo(&panel, QPoint(0, 0)), chart->size());
    EXPECT_LE(placed.right(), panel.rect().right());
    EXPECT_GE(placed.left(), 0);
  }
  testing::save_and_check(panel.grab().toImage(), QStringLiteral("prediction_panel_%1").arg(width));
  testing::save_and_check(steps->grab().toImage(), QStringLiteral("prediction_steps_%1").arg(width));
}

INSTANTIATE_TEST_SUITE_P(Screens, PredictionPanelWidths, ::testing::Values(1280, 1920));

// Many streams with long labels and a sub-microsecond step, at the chart's minimum size: still legible.
TEST(StepTimelineChartTest, AtItsMinimumSizeEverythingStillFits) {
  predict::StepTimeline measured, replayed;
  measured.step_ns = 900, replayed.step_ns = 1'700;
  for (int s = 0; s < 9; ++s) {
    measured.lanes.push_back({"stream " + std::to_string(1000000 + s), {{0, 300, predict::OpKind::compute, {}}}});
    replayed.lanes.push_back({"stream " + std::to_string(1000000 + s), {{-50, 400, predict::OpKind::copy, {}}}});
  }
  replayed.lanes.push_back({"host-staged copies (inserted)", {{400, 1'650, predict::OpKind::inserted, {}}}});
  StepTimelineChart chart;
  chart.set_steps(measured, QStringLiteral("Measured on 1 GPU: a title long enough to wrap at the minimum width"),
                  replayed, QStringLiteral("Replayed, one replica of 8 GPUs (red: inserted by the prediction)"));
  chart.resize(chart.minimumSizeHint());
  const auto layout = chart.current_layout();
  EXPECT_EQ(layout.lanes.size(), 19u);
  EXPECT_GE(layout.span_ns, 1'700);
  EXPECT_EQ(joined(testing::text_legibility_problems(layout.texts, layout.lanes, chart.rect(), chart.fontMetrics())),
            "");
  EXPECT_TRUE(layout.texts.back().text.endsWith(QStringLiteral(" us")));  // the axis' unit fits the step
}

}  // namespace
}  // namespace gpuprof::gui
