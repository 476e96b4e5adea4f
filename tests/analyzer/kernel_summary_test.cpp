#include <gtest/gtest.h>

#include <cmath>

#include "gpuprof/analysis/kernel_labels.hpp"
#include "gpuprof/analysis/kernel_summary.hpp"
#include "model_builder.hpp"

namespace gpuprof::analysis {
namespace {

TEST(DurationStats, NsysStyle) {
  std::vector<std::int64_t> values = {40, 10, 30, 20};
  const auto stats = duration_stats(values);
  EXPECT_EQ(stats.instances, 4);
  EXPECT_EQ(stats.total_ns, 100);
  EXPECT_DOUBLE_EQ(stats.avg_ns, 25.0);
  EXPECT_DOUBLE_EQ(stats.med_ns, 25.0);
  EXPECT_EQ(stats.min_ns, 10);
  EXPECT_EQ(stats.max_ns, 40);
  EXPECT_DOUBLE_EQ(stats.stddev_ns, std::sqrt(500.0 / 3.0));
  std::vector<std::int64_t> odd = {5, 1, 9};
  EXPECT_DOUBLE_EQ(duration_stats(odd).med_ns, 5.0);
  std::vector<std::int64_t> one = {7};
  EXPECT_DOUBLE_EQ(duration_stats(one).stddev_ns, 0.0);
}

TEST(KernelSummary, PerNameAndPerCategory) {
  testing::ModelBuilder builder;
  builder.kernel(0, 7, 0, 10, "A").kernel(0, 7, 10, 30, "A").kernel(1, 7, 0, 30, "A").kernel(1, 7, 30, 70, "A");
  builder.kernel(0, 9, 0, 110, "B").kernel(0, 21, 0, 50, "ncclKernel_AllReduce");
  builder.memset(0, 7, 100, 104).memcpy(0, 7, 200, 206, trace::CopyKind::device_to_host, 8, 0);
  const auto model = builder.build();
  const auto summary = summarize_kernels(model, KernelClassifier().classify_names(model));
  ASSERT_EQ(summary.kernels.size(), 3U);
  EXPECT_EQ(summary.kernels[0].name, "B");
  EXPECT_DOUBLE_EQ(summary.kernels[0].percent, 100.0 * 110.0 / 260.0);
  EXPECT_EQ(summary.kernels[1].name, "A");
  EXPECT_EQ(summary.kernels[1].stats.instances, 4);
  EXPECT_DOUBLE_EQ(summary.kernels[1].stats.med_ns, 25.0);
  EXPECT_EQ(summary.kernels[2].category, "communication");

  ASSERT_EQ(summary.categories.size(), 4U);
  EXPECT_EQ(summary.categories[0].name, "computation kernels");
  EXPECT_EQ(summary.categories[0].stats.total_ns, 210);
  EXPECT_EQ(summary.categories[1].name, "communication kernels");
  EXPECT_EQ(summary.categories[2].name, "memcpy DtoH");
  EXPECT_EQ(summary.categories[3].name, "memset");
  EXPECT_DOUBLE_EQ(summary.categories[3].percent, 100.0 * 4.0 / 270.0);

  const auto top = summarize_kernels(model, KernelClassifier().classify_names(model), 1);
  ASSERT_EQ(top.kernels.size(), 1U);
  EXPECT_DOUBLE_EQ(top.kernels[0].percent, 100.0 * 110.0 / 260.0);
}

// Rows apart by full name but alike by short name are numbered, so no two rows of a table read the same.
TEST(KernelLabels, RowsSharingAShortNameAreNumbered) {
  std::vector<KernelSummaryRow> rows(4);
  rows[0].name = "void at::vectorized_elementwise_kernel<4, A>(int)", rows[0].short_name = "vectorized_elementwise_kernel";
  rows[1].name = "gemm", rows[1].short_name = "gemm";
  rows[2].name = "void at::vectorized_elementwise_kernel<2, B>(int)", rows[2].short_name = "vectorized_elementwise_kernel";
  rows[3].name = "no_short_name";
  EXPECT_EQ(kernel_labels(rows, false),
            (std::vector<std::string>{"vectorized_elementwise_kernel #1", "gemm", "vectorized_elementwise_kernel #2",
                                      "no_short_name"}));
  EXPECT_EQ(kernel_labels(rows, true), (std::vector<std::string>{rows[0].name, "gemm", rows[2].name, "no_short_name"}));
}

}  // namespace
}  // namespace gpuprof::analysis
