#include <gtest/gtest.h>

#include "gpuprof/predict/allreduce_curve.hpp"
#include "gpuprof/predict/link_profile.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

// t = 10 us + S * f / 100 GB/s exactly, on 2 and 8 GPUs.
AllReduceTable exact_table(std::int32_t gpus) {
  AllReduceTable table{gpus, {}, "exact"};
  for (std::int64_t bytes = 8; bytes <= (1LL << 30); bytes *= 4)
    table.points.push_back({bytes, 10'000.0 + static_cast<double>(bytes) * all_reduce_factor(gpus) / 100.0});
  return table;
}

TEST(AllReduceCurve, ReproducesAnAlphaBetaTableWithoutCountingTheLatencyTwice) {
  const AllReduceCurve curve({exact_table(2), exact_table(8)});
  EXPECT_NEAR(curve.alpha_ns(2), 10'000.08, 0.01);
  for (const std::int64_t bytes : {1LL << 20, 3LL << 20, 1LL << 30}) {
    const double expected = 10'000.0 + static_cast<double>(bytes) * all_reduce_factor(8) / 100.0;
    EXPECT_NEAR(curve.time_ns(bytes, 8) / expected, 1.0, 0.01) << bytes;
  }
  EXPECT_EQ(curve.time_ns(1 << 20, 1), 0.0);
  EXPECT_EQ(curve.time_ns(0, 8), 0.0);
}

TEST(AllReduceCurve, InterpolatesGpuCountsBetweenTablesAndExtrapolatesLatencyBeyond) {
  auto two = exact_table(2), eight = exact_table(8);
  for (auto& point : eight.points) point.time_ns += 30'000.0;  // 8 GPUs: 40 us latency
  const AllReduceCurve curve({two, eight}, 2'000.0);
  EXPECT_NEAR(curve.alpha_ns(4), 10'000.0 + 30'000.0 * 2.0 / 6.0, 10.0);
  EXPECT_NEAR(curve.alpha_ns(10), curve.alpha_ns(8) + 2 * 2 * 2'000.0, 1.0);
}

TEST(AllReduceCurve, RefusesEmptyMeasurements) {
  EXPECT_THROW(AllReduceCurve({}), TraceError);
  EXPECT_THROW(AllReduceCurve({AllReduceTable{2, {}, "x"}}), TraceError);
}

TEST(LinkPresets, EveryPresetNamesItsSourceAndBuildsACurve) {
  for (const auto& name : link_preset_names()) {
    const auto link = link_preset(name);
    EXPECT_FALSE(link.source.empty()) << name;
    const auto curve = link.curve();
    // More bytes never take less time; more bytes move at a higher bus bandwidth up to the plateau.
    EXPECT_GT(curve.time_ns(64 << 20, 2), curve.time_ns(1 << 20, 2)) << name;
    EXPECT_GT(curve.time_ns(64 << 20, 8), 0.0) << name;
    EXPECT_LT(link.slower, 1.0) << name;
    EXPECT_GT(link.faster, 1.0) << name;
  }
  // The PCIe 3 preset is the 2080 Ti pair's measured plateau: 4.00 GB/s busbw at 1 GiB.
  const auto pcie3 = link_preset("pcie3").curve();
  const double bytes = 1 << 30;
  EXPECT_NEAR(bytes * all_reduce_factor(2) / pcie3.time_ns(1 << 30, 2), 4.0, 0.05);
}

TEST(LinkPresets, UnknownNameListsThePresets) {
  try {
    link_preset("infiniband9");
    FAIL();
  } catch (const TraceError& error) {
    EXPECT_NE(std::string(error.what()).find("nvlink3"), std::string::npos) << error.what();
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
  }
}

}  // namespace
}  // namespace gpuprof::predict
