#include <gtest/gtest.h>

#include "gpuprof/predict/allreduce_curve.hpp"
#include "gpuprof/predict/link_profile.hpp"
#include "gpuprof/predict/pcie4_measurements.hpp"

namespace gpuprof::predict {
namespace {

// The preset's all-reduce reproduces every measured point it was built from: a timed size at its time, a plateau
// figure as the bus bandwidth of the largest sizes.
TEST(Pcie4Preset, CurveReproducesItsMeasuredAllReducePoints) {
  const auto curve = link_preset("pcie4").curve();
  ASSERT_FALSE(pcie4_allreduce_figures().empty());
  for (const auto& figure : pcie4_allreduce_figures()) {
    if (figure.bytes > 0) {
      EXPECT_NEAR(curve.time_ns(figure.bytes, figure.gpus) / (source_median(figure) * 1'000.0), 1.0, 0.02)
          << figure.source;
    } else {
      const std::int64_t bytes = 1LL << 30;
      const double busbw = static_cast<double>(bytes) * all_reduce_factor(figure.gpus) / curve.time_ns(bytes, figure.gpus);
      EXPECT_NEAR(busbw / source_median(figure), 1.0, 0.02) << figure.source;
    }
  }
}

// The figures worked by hand from the sources, by the stated rule (median over sources of each source's median).
TEST(Pcie4Preset, CopiesAndBandAreTheMediansAndEndsOfTheSources) {
  const auto link = link_preset("pcie4");
  EXPECT_NEAR(link.host_gbps, (26.185 + 26.0) / 2.0, 1e-9);  // nvbandwidth#15's eight GPUs; sglang#39605
  EXPECT_NEAR(link.peer_gbps, (22.24 + 6.34) / 2.0, 1e-9);   // nccl#814's 30 pairs; open-gpu-kernel-modules#44
  EXPECT_NEAR(link.faster, 22.24 / 14.29, 1e-9);
  EXPECT_NEAR(link.slower, 6.34 / 14.29, 1e-9);
  EXPECT_FALSE(link.peer_access);
  EXPECT_TRUE(link.over_pcie);
  const auto busbw = pcie4_preset_figures().busbw_gbps;
  ASSERT_EQ(busbw.size(), 2u);
  EXPECT_EQ(busbw[0].first, 2);
  EXPECT_NEAR(busbw[0].second, 20'971'520.0 / 10'900'000.0, 1e-9);  // 20 MiB in 10.9 ms on 2 GPUs
  EXPECT_EQ(busbw[1].first, 4);
  EXPECT_NEAR(busbw[1].second, 18.0, 1e-9);
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
