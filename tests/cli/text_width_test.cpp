// The text of a scaling study with its predictions and of `predict --check` fits 120 columns, notes and
// titles wrapped as the report wraps prose (issue 39; CliReference.TextOutputsFit120Columns covers the rest).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "report_width.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

void expect_fits(const std::vector<std::string>& command) {
  const auto result = gpuprof(command);
  ASSERT_EQ(result.exit_code, 0) << command[0] << ": " << result.err;
  EXPECT_EQ(first_line_wider_than(result.out, 120), "") << command[0];
}

TEST(TextWidth, StudyWithPredictionsFits120Columns) {
  TemporaryFolder folder;
  const auto study = folder.file("study");
  const auto swept = gpuprof({"sweep", "--synthetic", "--workload", "mlp", "--batch", "32,64", "--gpus", "1,2",
                              "-o", study, "-q"});
  ASSERT_EQ(swept.exit_code, 0) << swept.err;
  // The link is chosen from the traces' GPU: a note says so, longer than a line.
  expect_fits({"study", study, "--predict-gpus", "2,4", "--predict-grad-bytes", "1000000"});
}

TEST(TextWidth, PredictCheckFits120Columns) {
  TemporaryFolder folder;
  // A path longer than the table's trace column.
  const auto trace = folder.file("a-two-gpu-job-with-a-rather-long-file-name.sqlite");
  ASSERT_EQ(gpuprof({"synth", "-o", trace, "--devices", "2", "--steps", "4", "-q"}).exit_code, 0);
  expect_fits({"predict", "--check", trace});
}

}  // namespace
}  // namespace gpuprof::testing
