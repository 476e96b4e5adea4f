#include <gtest/gtest.h>

#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace {

using gpuprof::testing::run_process;

class PredictCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    gpuprof::synthetic::SynthOptions options;
    options.devices = 1;
    options.steps = 10;
    gpuprof::synthetic::write_synthetic_trace(trace_, options);
  }
  gpuprof::testing::TemporaryFolder folder_;
  std::string trace_ = folder_.file("one_gpu.sqlite");
};

TEST_F(PredictCommand, PrintsVerdictBandAndTermsAndWritesJsonIntoPlace) {
  const auto text =
      run_process({GPUPROF_BINARY, "predict", trace_, "--gpus", "2,4", "--link", "pcie3", "--grad-bytes", "100000000"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("2 GPUs: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("exposed all-reduce over pcie3"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("band"), std::string::npos);
  const auto json = folder_.file("p.json");
  const auto written = run_process(
      {GPUPROF_BINARY, "predict", trace_, "--gpus", "2", "--grad-bytes", "1000000", "--format", "json", "-o", json});
  ASSERT_EQ(written.exit_code, 0) << written.err;
  EXPECT_NE(gpuprof::testing::read_file(json).find("\"format\":\"gpuprof.predict/1\""), std::string::npos);
  // An existing output is refused without --force.
  EXPECT_EQ(run_process({GPUPROF_BINARY, "predict", trace_, "--gpus", "2", "--grad-bytes", "1", "-o", json}).exit_code,
            2);
}

TEST_F(PredictCommand, BadInputIsOneLineAndExitTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {"--gpus", "2"},                                                      // no gradient size
      {"--gpus", "2", "--grad-bytes", "1", "--link", "nvlink9"},            // unknown link
      {"--gpus", "0", "--grad-bytes", "1"},                                 // N < 1
      {"--gpus", "2", "--grad-bytes", "1", "--step-pattern", "^nothing$"},  // no steps
  };
  for (const auto& extra : cases) {
    std::vector<std::string> arguments{GPUPROF_BINARY, "predict", trace_};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    const auto result = run_process(arguments);
    EXPECT_EQ(result.exit_code, 2) << extra[1];
    EXPECT_TRUE(result.out.empty());
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  }
  const auto missing = run_process({GPUPROF_BINARY, "predict", folder_.file("none.sqlite"), "--gpus", "2"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("none.sqlite"), std::string::npos);
}

}  // namespace
