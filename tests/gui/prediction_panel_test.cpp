// The app's Prediction panel (issue 29, item 4): every figure it shows is the one `gpuprof predict` gives with
// the same options, the waterfall and the step timelines are legible at the two common screen widths, a bad
// request is the CLI's one line, and a job of several ranks is refused with the reason.

#include "gpuprof/gui/prediction_panel.hpp"

#include <gtest/gtest.h>

#include <QApplication>
#include <QPushButton>
#include <QTest>
#include <string>
#include <vector>

#include "gpuprof/gui/step_timeline_chart.hpp"
#include "gpuprof/gui/waterfall_chart.hpp"
#include "gpuprof/predict/prediction_writers.hpp"
#include "gui_fixtures.hpp"
#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

using gpuprof::testing::TemporaryFolder;
using testing::joined;

constexpr int kPredictTimeoutMs = 120'000;

predict::PredictRequest pcie_request() {
  predict::PredictRequest request;
  request.gpus = {2};
  request.link = "pcie3";
  request.grad_bytes = 100'000'000;
  return request;
}

// The CLI with the request's options.
gpuprof::testing::ProcessResult run_cli(const std::string& trace, const predict::PredictRequest& request,
                                        const std::string& format) {
  std::vector<std::string> command{
      GPUPROF_BINARY,    "predict",        trace,        "--gpus",        std::to_string(request.gpus.front()),
      "--strategy",      request.strategy, "--scaling",  request.scaling, "--allreduce",
      request.allreduce, "--link",         request.link, "--format",      format};
  if (request.grad_bytes) command.insert(command.end(), {"--grad-bytes", std::to_string(*request.grad_bytes)});
  if (request.split_bytes) command.insert(command.end(), {"--split-bytes", std::to_string(*request.split_bytes)});
  return gpuprof::testing::run_process(command);
}

// Sets the request in the controls, presses Predict and waits for the result or the error.
void predict_with(PredictionPanel& panel, const predict::PredictRequest& request) {
  panel.set_request(request);
  QTest::mouseClick(panel.predict_button(), Qt::LeftButton);
  ASSERT_TRUE(QTest::qWaitFor([&] { return !panel.busy() && (panel.prediction() || !panel.error_text().isEmpty()); },
                              kPredictTimeoutMs));
}

class PredictionPanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = folder_.file("one_gpu.sqlite");
    testing::write_trace(trace_, 1, 12);
  }
  TemporaryFolder folder_;
  std::string trace_;
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
    EXPECT_EQ(predict::render_prediction(predict::PredictFormat::json, *panel.prediction()), json.out) << strategy;
    // Every line the panel shows is a line of the text output.
    const auto text = run_cli(trace_, request, "text");
    ASSERT_EQ(text.exit_code, 0) << text.err;
    for (const auto& line : panel.result_text().split(QLatin1Char('\n'))) {
      const auto shown = line.toStdString();
      EXPECT_NE(text.out.find(shown), std::string::npos) << "shown but not in gpuprof predict: " << shown;
    }
    const auto& row = panel.prediction()->rows.front();
    EXPECT_TRUE(panel.result_text().contains(QString::fromStdString(predict::row_headline(row))));
    EXPECT_TRUE(panel.result_text().contains(QString::fromStdString(row.verdict)));
  }
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

class PredictionPanelWidths : public PredictionPanelTest, public ::testing::WithParamInterface<int> {};

TEST_P(PredictionPanelWidths, WaterfallAndStepTimelinesAreLegible) {
  const int width = GetParam();
  PredictionPanel panel;
  panel.resize(width, width * 9 / 16);
  panel.show();
  panel.set_session(testing::load(trace_));
  predict_with(panel, pcie_request());
  ASSERT_TRUE(panel.prediction()) << panel.error_text().toStdString();
  QApplication::processEvents();
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
  // Both charts lie inside the panel's width: nothing is cut off at the right.
  for (const QWidget* chart : {static_cast<const QWidget*>(waterfall), static_cast<const QWidget*>(steps)}) {
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
