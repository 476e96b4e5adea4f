#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "gpuprof/predict/prediction.hpp"
#include "gpuprof/predict/prediction_writers.hpp"
#include "gpuprof/predict/step_variability.hpp"
#include "synthetic_gpus_trace.hpp"

// The band's ends on a machine over PCIe (issue 37): what a 1-GPU trace cannot know, the band covers, and the
// verdict is decided only where the whole band is on one side of one GPU's throughput.

namespace gpuprof::predict {
namespace {

class BandEnds : public ::testing::Test {
 protected:
  void SetUp() override { model_ = gpuprof::testing::synthetic_steps_model(folder_); }
  // One 2-GPU data-parallel prediction, weak scaling, the variables on GPU 0 over 7gforce's x1 risers, with
  // gradients of `bytes`.
  GpuCountPrediction predict_with(std::int64_t bytes, std::int32_t gpus = 2) {
    PredictOptions options;
    options.gpus = {gpus};
    options.link = link_preset("pcie3-x1");
    options.sync = SyncStrategy::ps_gpu;
    options.schedule = AllReduceSchedule::after_backward;
    options.gradient_bytes = bytes;
    last_ = predict({&model_}, options);
    measured_ns_ = last_.measured_step_ns;
    return last_.rows.front();
  }
  // The gradient bytes whose ps-gpu exchange on 2 GPUs takes `ns` (two copies through GPU 0's link).
  std::int64_t bytes_for(double ns) const {
    const auto link = link_preset("pcie3-x1");
    return static_cast<std::int64_t>((ns / 2 - link.peer_latency_ns) * link.peer_gbps);
  }
  gpuprof::testing::TemporaryFolder folder_;
  trace::TraceModel model_;
  double measured_ns_ = 0;
  Prediction last_;
};

// nvprof shows Keras's copies to a parameter server on a GPU running beside the computation (Rossum's
// keras-tensorflow.md), and the 2-GPU runs with it on 7gforce are 11-18 % faster than the copies after backward:
// the fast end lets the exchange run from the start of backward. Before, it only took the faster link, and
// those runs fell outside the band.
TEST_F(BandEnds, ParameterServerCopiesMayOverlapBackwardAtTheFastEnd) {
  predict_with(bytes_for(1e6));  // the measured step
  const double exchange = measured_ns_;
  const auto row = predict_with(bytes_for(exchange));
  const auto link = link_preset("pcie3-x1");
  // The centre puts the whole exchange after backward; the faster link alone would save exchange × (1 - 1/faster).
  const double faster_link_only = row.step_ns - exchange + exchange / link.faster;
  // Backward is most of synth's step: the overlap hides at least a third of the work more.
  EXPECT_LT(row.low_ns, faster_link_only - (row.step_ns - exchange) / 3) << "centre " << row.step_ns;
  EXPECT_LE(row.low_ns, row.step_ns);
}

TEST_F(BandEnds, TheVerdictIsDecidedOnlyByTheWholeBand) {
  predict_with(bytes_for(1e6));
  const double step = measured_ns_;
  // An exchange as long as the step: 2 GPUs at about one GPU's throughput, the band on both sides of it.
  const auto even = predict_with(bytes_for(step));
  EXPECT_NEAR(even.speedup, 1.0, 0.1);
  EXPECT_EQ(even.call, Call::uncertain);
  EXPECT_LT(even.slow_end_speedup, 1.0);
  EXPECT_GT(even.fast_end_speedup, 1.0);
  EXPECT_NE(even.verdict.find("uncertain whether faster than one GPU"), std::string::npos) << even.verdict;
  const auto json = render_prediction(report::Format::json, last_);
  EXPECT_NE(json.find(R"("call":"uncertain")"), std::string::npos) << json;
  // A tiny exchange: faster even at the slow end, with the replica loss of PCIe machines.
  const auto cheap = predict_with(bytes_for(0.01 * step));
  EXPECT_EQ(cheap.call, Call::faster) << cheap.slow_end_speedup;
  EXPECT_EQ(cheap.verdict.find("uncertain"), std::string::npos) << cheap.verdict;
  // An exchange five steps long: no faster even if it all hid behind backward.
  const auto costly = predict_with(bytes_for(5 * step));
  EXPECT_EQ(costly.call, Call::no_faster) << costly.fast_end_speedup;
  // One GPU is the reference: never "uncertain", even with an exchange that would straddle at 2.
  const auto one = predict_with(bytes_for(step), 1);
  EXPECT_EQ(one.call, Call::no_faster);
  EXPECT_EQ(one.verdict.find("uncertain"), std::string::npos) << one.verdict;
}

// Machines over PCIe lose more beyond the replay than NVLink servers (one host feeds every replica over thin
// links): the slow end takes the replica loss calibrated on Rossum's PCIe runs, not the published NVLink runs'.
TEST_F(BandEnds, PcieMachinesTakeTheirOwnReplicaLoss) {
  EXPECT_TRUE(link_preset("pcie3-x1").over_pcie);
  EXPECT_TRUE(link_preset("pcie4").over_pcie);
  EXPECT_FALSE(link_preset("nvlink3").over_pcie);
  EXPECT_GT(kPcieReplicaLoss, kPublishedReplicaLoss);
  const auto row = predict_with(bytes_for(1e5));
  EXPECT_DOUBLE_EQ(row.high_ns, row.band_high.at(kPcieReplicaLoss));
}

// Without --sync a 1-GPU trace cannot tell the framework's strategy: on a PCIe box with peer access (a
// workstation running Keras or TF 1.x) the slow end covers the parameter servers too, as it does without peer
// access; on NVLink it stays the ring (PyTorch DDP, Horovod). Before, peer access alone meant "ring only".
TEST_F(BandEnds, WithoutSyncAPcieBoxWithPeerAccessCoversTheParameterServers) {
  const auto slow_end = [&](const std::string& link, std::optional<SyncStrategy> sync) {
    PredictOptions options;
    options.gpus = {4};
    options.link = link_preset(link);
    options.sync = sync;
    options.gradient_bytes = 100'000'000;
    return predict({&model_}, options).rows.front().band_high.replay_ns;
  };
  ASSERT_TRUE(link_preset("pcie3-p2p").peer_access);
  EXPECT_GE(slow_end("pcie3-p2p", std::nullopt), slow_end("pcie3-p2p", SyncStrategy::ps_gpu));
  EXPECT_GE(slow_end("pcie3-p2p", std::nullopt), slow_end("pcie3-p2p", SyncStrategy::ps_cpu));
  EXPECT_LT(slow_end("nvlink3", std::nullopt), slow_end("nvlink3", SyncStrategy::ps_gpu));
}

// Beside an uncertain call the user gets the centre's side (issue 37), in the sentence and in JSON's `lean`; where
// the centre is within the 1-GPU step's own variability of one GPU it takes no side. Every call carries a lean.
TEST_F(BandEnds, BesideAnUncertainCallTheCentreLeansOrIsTooCloseToCall) {
  predict_with(bytes_for(1e6));
  const double step = measured_ns_;
  // An exchange 1.3 steps long: 0.84x at the centre, the band from about 0.5x to 1.1x.
  const auto leaning = predict_with(bytes_for(1.3 * step));
  ASSERT_EQ(leaning.call, Call::uncertain);
  EXPECT_LT(leaning.speedup, 1.0 - last_.step_variability);
  EXPECT_EQ(leaning.lean, Lean::no_faster);
  EXPECT_NE(leaning.verdict.find("its centre leans no faster"), std::string::npos) << leaning.verdict;
  EXPECT_NE(render_prediction(report::Format::json, last_).find(R"("call":"uncertain","lean":"no faster")"),
            std::string::npos);
  // 0.95 steps: the centre at about 0.99x, inside the trace's own step-to-step variability.
  const auto close = predict_with(bytes_for(0.95 * step));
  ASSERT_EQ(close.call, Call::uncertain);
  EXPECT_EQ(close.lean, Lean::too_close) << close.speedup << " within " << last_.step_variability;
  EXPECT_NE(close.verdict.find(fmt::format("within the 1-GPU step's variability ({:.1f} %) of one GPU: too close "
                                           "to call",
                                           100 * last_.step_variability)),
            std::string::npos)
      << close.verdict;
  // A decided call keeps its sentence as it was and still carries its lean.
  const auto costly = predict_with(bytes_for(3 * step));
  EXPECT_EQ(costly.call, Call::no_faster);
  EXPECT_EQ(costly.lean, Lean::no_faster);
  EXPECT_EQ(costly.verdict.find("lean"), std::string::npos) << costly.verdict;
  EXPECT_NE(render_prediction(report::Format::json, last_).find(R"("lean":"no faster")"), std::string::npos);
}

// The variability a lean is judged against is the one the synchronization term uses: the trace's own steady
// periods, a stated one where the options give it (the validation's published rows), and the project's stated
// figure where the trace has too few steady periods to measure its own.
TEST_F(BandEnds, TheTooCloseRuleTakesTheVariabilityTheTraceMeasuresOrTheStatedOne) {
  predict_with(bytes_for(1e6));
  const double own = last_.step_variability;
  EXPECT_GT(own, 0.0);
  EXPECT_NE(own, kStatedStepVariability);
  const auto with = [&](const std::function<void(PredictOptions&)>& edit) {
    PredictOptions options;
    options.gpus = {2};
    options.link = link_preset("pcie3-x1");
    options.sync = SyncStrategy::ps_gpu;
    options.schedule = AllReduceSchedule::after_backward;
    options.gradient_bytes = bytes_for(0.95 * measured_ns_);
    edit(options);
    return predict({&model_}, options);
  };
  // Stated as none, the centre near 1x (the synchronization term moves it too) takes its side.
  const auto stated_none = with([](PredictOptions& o) { o.stated_step_spread = 0.0; });
  const auto& row = stated_none.rows.front();
  EXPECT_EQ(stated_none.step_variability, 0.0);
  EXPECT_NEAR(row.speedup, 1.0, own) << "no longer a case for the rule";
  EXPECT_EQ(row.lean, row.speedup > 1.0 ? Lean::faster : Lean::no_faster) << row.speedup;
  // Nine of the twelve steps as warm-up leave two steady periods: too few to measure, the stated figure.
  const auto short_run = with([](PredictOptions& o) { o.analysis.warmup_steps = 9; });
  EXPECT_EQ(short_run.step_variability, kStatedStepVariability);
}

}  // namespace
}  // namespace gpuprof::predict
