// `gpuprof compare` text of the real traces under ../shared/data/external fits 120 columns (issue 30: it
// reached 174), with short and full kernel names; --wide keeps lines whole. Skips without the folder.

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "gpuprof/comparison/comparison_writers.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "report_width.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::comparison {
namespace {

job::JobAnalysis analyse(const std::string& input) {
  job::JobOptions options;
  options.analysis.top_kernels = 0;  // as compare does: the diff needs every kernel
  return job::analyze_job({input}, options);
}

TEST(CompareExternal, TextFits120ColumnsAndWideDoesNot) {
  const auto data = gpuprof::testing::external_data_dir();
  if (data.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  const std::vector<std::pair<std::string, std::string>> pairs{
      {"kineto-resnet50/resnet50_num_workers_0.pt.trace.json.gz", "dlrm-8rank"},
      {"kineto-resnet50/resnet50_num_workers_0.pt.trace.json.gz",
       "kineto-resnet50/resnet50_num_workers_4.pt.trace.json.gz"},
      {"hta/training_rank0of16.json.gz", "hta/nccl_data_rank0of2.json.gz"},
      {"nvprof-magma/magma-1.6.1_testing_dgetrf_k20c.nvvp", "nvprof-magma/magma-2.0.2_testing_dgeqrf_k20c.nvvp"}};
  bool any_wider = false;
  for (const auto& [base_name, other_name] : pairs) {
    const auto base = analyse((data / base_name).string());
    const auto other = analyse((data / other_name).string());
    for (const bool full_names : {false, true}) {
      const auto comparison = compare_runs(base, other, {.full_names = full_names});
      const auto text = render_comparison(report::Format::text, comparison);
      EXPECT_EQ(gpuprof::testing::first_line_wider_than(text, report::kTerminalWidth), "")
          << base_name << " vs " << other_name << (full_names ? " (--full-names)" : "");
      const auto wide = render_comparison(report::Format::text, comparison, true);
      any_wider = any_wider || !gpuprof::testing::first_line_wider_than(wide, report::kTerminalWidth).empty();
    }
  }
  EXPECT_TRUE(any_wider) << "--wide keeps long lines whole";
}

}  // namespace
}  // namespace gpuprof::comparison
