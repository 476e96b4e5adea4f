// The prediction's pieces for other views: the step timelines and the waterfall bars. Keeping the timelines
// changes no figure; the measured step is the recorded one, the replayed one holds the inserted work; the
// bars go from the measured step through the terms to the predicted step.

#include <gtest/gtest.h>

#include <functional>

#include "gpuprof/predict/predict_request.hpp"
#include "gpuprof/predict/prediction_waterfall.hpp"
#include "gpuprof/predict/prediction_writers.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "synthetic_gpus_trace.hpp"

namespace gpuprof::predict {
namespace {

trace::TraceModel one_gpu_model(const gpuprof::testing::TemporaryFolder& folder) {
  return gpuprof::testing::synthetic_steps_model(folder);
}

PredictRequest request(const std::string& strategy) {
  PredictRequest request;
  request.gpus = "2,8";
  request.strategy = strategy;
  request.link = "pcie3";
  request.grad_bytes = 50'000'000;
  request.split_bytes = 4'000'000;
  return request;
}

TEST(StepTimeline, KeepingTheTimelinesChangesNoFigure) {
  gpuprof::testing::TemporaryFolder folder;
  const auto model = one_gpu_model(folder);
  for (const auto* strategy : {"data-parallel", "host-staged", "placement"}) {
    auto options = options_of(request(strategy));
    const auto plain = predict({&model}, options);
    options.step_timelines = true;
    const auto kept = predict({&model}, options);
    EXPECT_EQ(render_prediction(report::Format::json, plain), render_prediction(report::Format::json, kept));
    EXPECT_TRUE(plain.measured_step.lanes.empty());
    EXPECT_FALSE(kept.measured_step.lanes.empty()) << strategy;
    for (const auto& row : kept.rows) EXPECT_FALSE(row.replayed_step.lanes.empty()) << strategy;
  }
}

TEST(StepTimeline, TheMeasuredStepIsRecordedWorkAndTheReplayedOneHoldsTheInsertedWork) {
  gpuprof::testing::TemporaryFolder folder;
  const auto model = one_gpu_model(folder);
  const std::vector<std::pair<std::string, std::string>> inserted{{"data-parallel", "all-reduces (inserted)"},
                                                                  {"host-staged", "host-staged copies (inserted)"},
                                                                  {"placement", "split-point copies (inserted)"}};
  for (const auto& [strategy, label] : inserted) {
    auto options = options_of(request(strategy));
    options.step_timelines = true;
    const auto prediction = predict({&model}, options);
    const auto& measured = prediction.measured_step;
    EXPECT_GT(measured.step_ns, 0);
    for (const auto& lane : measured.lanes) {
      EXPECT_EQ(lane.label.rfind("stream ", 0), 0u) << lane.label;
      for (const auto& event : lane.events) EXPECT_NE(event.kind, OpKind::inserted);
    }
    for (const auto& row : prediction.rows) {
      const auto& replayed = row.replayed_step;
      EXPECT_EQ(replayed.step, measured.step);
      std::size_t found = 0;
      for (const auto& lane : replayed.lanes) {
        for (std::size_t i = 0; i < lane.events.size(); ++i) {
          const auto& event = lane.events[i];
          EXPECT_LE(event.start_ns, event.end_ns);
          EXPECT_LT(event.start_ns, replayed.step_ns);  // each overlaps the step
          EXPECT_GT(event.end_ns, 0);
          if (i > 0) {
            EXPECT_LE(lane.events[i - 1].start_ns, event.start_ns);
          }
          if (event.kind == OpKind::inserted) {
            EXPECT_EQ(lane.label, label);
            ++found;
          }
        }
      }
      EXPECT_GT(found, 0u) << strategy << " " << row.gpus;
    }
  }
}

TEST(PredictionWaterfall, FromTheMeasuredStepThroughTheTermsToThePredictedStep) {
  gpuprof::testing::TemporaryFolder folder;
  const auto model = one_gpu_model(folder);
  const auto prediction = predict({&model}, options_of(request("data-parallel")));
  for (const auto& row : prediction.rows) {
    const auto bars = prediction_waterfall(prediction, row);
    ASSERT_EQ(bars.size(), row.terms.size() + 2);
    EXPECT_EQ(bars.front().name, "measured 1-GPU step");
    EXPECT_DOUBLE_EQ(bars.front().to_ns, prediction.measured_step_ns);
    for (std::size_t i = 0; i < row.terms.size(); ++i) {
      EXPECT_EQ(bars[i + 1].name, row.terms[i].name);
      EXPECT_NEAR(bars[i + 1].to_ns - bars[i + 1].from_ns, row.terms[i].ns, 1e-3);  // ns, after a sum
    }
    // The terms add up: the last one ends at the predicted step.
    EXPECT_NEAR(bars[bars.size() - 2].to_ns, row.step_ns, 1e-6 * row.step_ns);
    EXPECT_EQ(bars.back().name, "predicted step on " + std::to_string(row.gpus) + " GPUs");
    EXPECT_DOUBLE_EQ(bars.back().to_ns, row.step_ns);
  }
}

TEST(PredictRequest, UnknownNamesAndSizesBelowOneAreBadInput) {
  for (auto change : std::vector<std::function<void(PredictRequest&)>>{
           [](PredictRequest& r) { r.strategy = "pipeline"; }, [](PredictRequest& r) { r.allreduce = "ring"; },
           [](PredictRequest& r) { r.scaling = "linear"; }, [](PredictRequest& r) { r.link = "nvlink9"; },
           [](PredictRequest& r) { r.grad_bytes = 0; }, [](PredictRequest& r) { r.split_bytes = -4; }}) {
    auto wrong = request("data-parallel");
    change(wrong);
    try {
      options_of(wrong);
      ADD_FAILURE() << "accepted";
    } catch (const TraceError& error) {
      EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
    }
  }
  // Every name the app's controls list is accepted.
  for (const auto& strategy : strategy_names())
    for (const auto& scaling : scaling_names())
      for (const auto& allreduce : allreduce_names()) {
        auto right = request(strategy);
        right.scaling = scaling, right.allreduce = allreduce;
        EXPECT_NO_THROW(options_of(right));
      }
}

}  // namespace
}  // namespace gpuprof::predict
