#include <gtest/gtest.h>

#include "gpuprof/predict/allreduce_curve.hpp"
#include "gpuprof/predict/link_profile.hpp"
#include "gpuprof/predict/pcie4_measurements.hpp"

namespace gpuprof::predict {
namespace {

double plateau_busbw_gbps(const AllReduceCurve& curve, std::int32_t gpus) {
  const std::int64_t bytes = 1LL << 30;
  return static_cast<double>(bytes) * all_reduce_factor(gpus) / curve.time_ns(bytes, gpus);
}

// Every all-reduce source is one measurement of the box's bus bandwidth whatever its GPU count: the curve's
// plateau is their median on 2, 4 and (beyond the measured counts) 8 GPUs, not each count's own source.
TEST(Pcie4Preset, CurvePlateauIsTheCentreOfTheAllReduceSourcesOnEveryGpuCount) {
  const auto figures = pcie4_preset_figures();
  const double centre = (20'971'520.0 / 10'900'000.0 + 18.0) / 2.0;  // sglang#39605's 20 MiB in 10.9 ms; nccl#1603
  EXPECT_NEAR(figures.busbw_gbps, centre, 1e-9);
  EXPECT_EQ(figures.allreduce_gpus, (std::vector<std::int32_t>{2, 4}));
  const auto curve = link_preset("pcie4").curve();
  for (const std::int32_t gpus : {2, 4, 8}) EXPECT_NEAR(plateau_busbw_gbps(curve, gpus) / centre, 1.0, 0.02) << gpus;
  // 8 GPUs: the same bandwidth, the ring's extra PCI hops on the latency.
  EXPECT_GT(curve.alpha_ns(8), curve.alpha_ns(4));
  EXPECT_GT(curve.alpha_ns(4), curve.alpha_ns(2));
}

// The band's ends put the curve on each all-reduce source: the slow end at the 2-GPU box's 20 MiB time, the fast
// end at the 4-GPU box's plateau.
TEST(Pcie4Preset, BandEndsReproduceTheAllReduceSources) {
  const auto link = link_preset("pcie4");
  const auto curve = link.curve();
  for (const auto& figure : pcie4_allreduce_figures()) {
    const double end = figure.gpus == 2 ? link.slower : link.faster;
    if (figure.bytes > 0) {
      const double alpha = curve.alpha_ns(figure.gpus);
      const double at_end = alpha + (curve.time_ns(figure.bytes, figure.gpus) - alpha) / end;
      EXPECT_NEAR(at_end / (source_median(figure) * 1'000.0), 1.0, 0.02) << figure.source;
    } else {
      EXPECT_NEAR(plateau_busbw_gbps(curve, figure.gpus) * end / source_median(figure), 1.0, 0.02) << figure.source;
    }
  }
  const double centre = pcie4_preset_figures().busbw_gbps;
  EXPECT_NEAR(link.faster, 18.0 / centre, 1e-9);
  EXPECT_NEAR(link.slower, 20'971'520.0 / 10'900'000.0 / centre, 1e-9);
}

// The copies keep their rule (median over sources of each source's median), worked by hand; the staged-copy
// sources' ends (22.24 and 6.34 over 14.29) lie inside the all-reduce's, so they do not widen the band.
TEST(Pcie4Preset, CopiesAreTheMediansOfTheirSources) {
  const auto link = link_preset("pcie4");
  EXPECT_NEAR(link.host_gbps, (26.185 + 26.0) / 2.0, 1e-9);  // nvbandwidth#15's eight GPUs; sglang#39605
  EXPECT_NEAR(link.peer_gbps, (22.24 + 6.34) / 2.0, 1e-9);   // nccl#814's 30 pairs; open-gpu-kernel-modules#44
  EXPECT_GT(link.faster, 22.24 / 14.29);
  EXPECT_LT(link.slower, 6.34 / 14.29);
  EXPECT_FALSE(link.peer_access);
  EXPECT_TRUE(link.over_pcie);
}

// Every figure names the page it was read from.
TEST(Pcie4Preset, EveryFigureNamesItsSource) {
  for (const auto* figures : {&pcie4_allreduce_figures(), &pcie4_host_copy_figures(), &pcie4_staged_copy_figures()})
    for (const auto& figure : *figures) {
      EXPECT_EQ(std::string(figure.source).rfind("https://", 0), 0u) << figure.source;
      EXPECT_FALSE(figure.values.empty()) << figure.source;
    }
}

}  // namespace
}  // namespace gpuprof::predict
