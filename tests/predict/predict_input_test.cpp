// `gpuprof predict` refuses or flags a wrong input rather than giving a confident number from it (issue 37):
// each case is one line on stderr naming the file, exit code 2, and no work beyond the check.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>

#include "gpuprof/predict/link_choice.hpp"
#include "process_runner.hpp"
#include "synthetic_gpus_trace.hpp"
#include "temporary_folder.hpp"
#include "wrapped_text.hpp"

namespace {

using gpuprof::testing::ProcessResult;
using gpuprof::testing::run_process;

std::string sample(const std::string& name) { return std::string(GPUPROF_SAMPLES_DIR) + "/" + name + ".sqlite"; }

ProcessResult predict(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), {GPUPROF_BINARY, "predict"});
  return run_process(arguments);
}

void expect_refused(const ProcessResult& result, const std::string& path, const std::string& reason) {
  EXPECT_EQ(result.exit_code, 2) << result.out;
  EXPECT_TRUE(result.out.empty());
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_NE(result.err.find(path), std::string::npos) << result.err;
  EXPECT_NE(result.err.find(reason), std::string::npos) << result.err;
}

class PredictInput : public ::testing::Test {
 protected:
  gpuprof::testing::TemporaryFolder folder_;
  std::string trace_ = gpuprof::testing::write_gpus_trace(folder_.file("one_gpu.sqlite"), 1);
};

// GRU sample, 40 steps: a warm-up of 40 or more used to count the warm-up steps as the step (11.9 ms, real 6.11).
TEST_F(PredictInput, WarmupLeavingNoSteadyStepIsRefused) {
  expect_refused(predict({trace_, "--gpus", "2", "--link", "pcie3", "--grad-bytes", "1000", "--warmup-steps", "10"}),
                 trace_, "--warmup-steps 10 leaves no steady step (the trace has 10 steps)");
  EXPECT_EQ(predict({trace_, "--gpus", "2", "--link", "pcie3", "--grad-bytes", "1000", "--warmup-steps", "9"})
                .exit_code,
            0);
}

// One rank of a multi-GPU job already communicates: predicting from it adds a second all-reduce.
TEST_F(PredictInput, MultiGpuTraceIsRefusedUnlessMeant) {
  const auto two = gpuprof::testing::write_gpus_trace(folder_.file("two_gpus.sqlite"), 2);
  expect_refused(predict({two, "--gpus", "4", "--link", "nvlink3", "--grad-bytes", "1000000"}), two,
                 "not a 1-GPU run");
  const auto meant =
      predict({two, "--gpus", "4", "--link", "nvlink3", "--grad-bytes", "1000000", "--multi-gpu-input"});
  EXPECT_EQ(meant.exit_code, 0) << meant.err;
}

// `predict resnet.sqlite mlp.sqlite` gave "74.84x the 1-GPU throughput (3742 % efficiency)".
TEST(PredictInputSamples, SecondTraceOfAnotherProgramIsRefused) {
  expect_refused(predict({sample("resnet"), sample("mlp"), "--gpus", "2", "--scaling", "strong", "--link", "nvlink4"}),
                 sample("mlp"), "not the same program");
  // Under weak scaling a second trace has no role: refused before it could be misread.
  expect_refused(predict({sample("resnet"), sample("mlp"), "--gpus", "2", "--link", "nvlink4"}), sample("mlp"),
                 "--scaling strong");
}

// Weak scaling keeps each replica's work: no row may show more than 100 % efficiency.
TEST(PredictInputSamples, WeakScalingEfficiencyNeverAboveOne) {
  for (const char* name : {"gru", "lstm", "mlp", "resnet", "towers"}) {
    const auto result = predict({sample(name), "--gpus", "2,8", "--link", "nvlink4", "--format", "csv"});
    ASSERT_EQ(result.exit_code, 0) << name << result.err;
    std::size_t rows = 0;
    for (std::size_t at = result.out.find('\n'); at != std::string::npos && at + 1 < result.out.size();
         at = result.out.find('\n', at + 1), ++rows) {
      // gpus,step_ns,low_ns,high_ns,speedup,efficiency,...
      std::size_t field = at + 1;
      for (int i = 0; i < 5; ++i) field = result.out.find(',', field) + 1;
      EXPECT_LE(std::stod(result.out.substr(field)), 1.0) << name << ": " << result.out;
    }
    EXPECT_GT(rows, 0u) << name;
  }
}

// A 96 TB typo ran for minutes, time growing with the size; now one line before any replay.
TEST_F(PredictInput, BytesBeyondTheGpusMemoryAreOneLine) {
  expect_refused(predict({trace_, "--gpus", "2", "--link", "pcie3", "--grad-bytes", "96000000000000"}), trace_,
                 "more than the 85520809984 bytes of GPU memory");
  expect_refused(predict({trace_, "--gpus", "2", "--link", "pcie3", "--strategy", "placement", "--split-bytes",
                          "96000000000000"}),
                 trace_, "--split-bytes of 96000000000000 bytes");
}

TEST_F(PredictInput, ByteCountsAndGpuCountsBelowOneAreRefused) {
  for (const char* bytes : {"0", "-5"}) {
    const auto result = predict({trace_, "--gpus", "2", "--link", "pcie3", "--grad-bytes", bytes});
    EXPECT_EQ(result.exit_code, 2) << bytes << result.out;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  }
  for (const char* gpus : {"0", "4294967298", "65537", "-2"}) {
    const auto result = predict({trace_, "--gpus", gpus, "--link", "pcie3", "--grad-bytes", "1000"});
    EXPECT_EQ(result.exit_code, 2) << gpus << result.out;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  }
}

// No silent default link: the trace's GPU chooses it and the output says so; an unknown GPU is refused.
TEST_F(PredictInput, LinkFollowsTheTracesGpuAndSaysSo) {
  const auto chosen = predict({trace_, "--gpus", "2", "--grad-bytes", "1000000"});
  ASSERT_EQ(chosen.exit_code, 0) << chosen.err;
  EXPECT_NE(chosen.out.find("link nvlink4 chosen from the trace's GPU 'NVIDIA H100 80GB HBM3 (synthetic)'"),
            std::string::npos)
      << chosen.out;
  const auto unknown = folder_.file("unknown_gpu.sqlite");
  std::filesystem::copy_file(trace_, unknown);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(unknown.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE devices SET name = 'Mystery Accelerator 9'", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  expect_refused(predict({unknown, "--gpus", "2", "--grad-bytes", "1000000"}), unknown,
                 "no preset is known for the trace's GPU 'Mystery Accelerator 9'");
  EXPECT_EQ(predict({unknown, "--gpus", "2", "--grad-bytes", "1000000", "--link", "pcie4"}).exit_code, 0);
}

TEST(LinkChoice, PresetsFromDriverNames) {
  using gpuprof::predict::preset_for_gpu_name;
  EXPECT_EQ(preset_for_gpu_name("Tesla V100-SXM2-16GB"), "nvlink2");
  EXPECT_EQ(preset_for_gpu_name("Tesla V100-PCIE-32GB"), "pcie3");
  EXPECT_EQ(preset_for_gpu_name("NVIDIA A100-SXM4-40GB"), "nvlink3");
  EXPECT_EQ(preset_for_gpu_name("NVIDIA A100 80GB PCIe"), "pcie4");
  EXPECT_EQ(preset_for_gpu_name("NVIDIA H200"), "nvlink4");
  EXPECT_EQ(preset_for_gpu_name("NVIDIA H800"), "h800");
  EXPECT_EQ(preset_for_gpu_name("NVIDIA GeForce GTX 1080 Ti"), "pcie3");
  EXPECT_EQ(preset_for_gpu_name("Tesla M60"), "pcie3-m60");  // measured on Azure's M60 machines
  EXPECT_EQ(preset_for_gpu_name("NVIDIA GeForce RTX 4090"), "pcie4");
  EXPECT_EQ(preset_for_gpu_name("NVIDIA A10"), "pcie4");
  EXPECT_EQ(preset_for_gpu_name("NVIDIA B200"), "nvlink5");
  EXPECT_EQ(preset_for_gpu_name("AMD Instinct MI300X"), "xgmi");
  EXPECT_EQ(preset_for_gpu_name("AMD Instinct MI250X"), "");  // no preset: refused, not guessed
}

// Every recorded sample predicts without --grad-bytes: the optimizer's update kernel sizes the gradients.
TEST(PredictInputSamples, EverySamplePredictsWithoutGradBytes) {
  // adam_kernel's grid x 256 threads x 4 bytes: 160,771 blocks for the MLP, 94,110 for the ResNet.
  for (const auto& [name, bytes] : std::vector<std::pair<std::string, std::string>>{{"mlp", "164629504"},
                                                                                     {"resnet", "96368640"}}) {
    const auto result = predict({sample(name), "--gpus", "2", "--format", "json"});
    ASSERT_EQ(result.exit_code, 0) << name << result.err;
    EXPECT_NE(result.out.find("\"gradient_bytes\":" + bytes), std::string::npos) << name << result.out;
  }
  for (const char* name : {"gru", "lstm", "towers"}) {
    const auto result = predict({sample(name), "--gpus", "2"});
    ASSERT_EQ(result.exit_code, 0) << name << result.err;
    EXPECT_NE(result.out.find("the optimizer's update kernel"), std::string::npos) << name << result.out;
  }
}

TEST(PredictInputSamples, PlacementHeadlineIsTheOneModelsThroughputUnderBothScalings) {
  std::vector<std::string> verdicts;
  for (const char* scaling : {"weak", "strong"}) {
    const auto result = predict({sample("towers"), "--gpus", "2", "--strategy", "placement", "--split-bytes",
                                 "12000000", "--link", "nvlink4", "--scaling", scaling});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto at = result.out.find("2 GPUs, one model split across them: step ");
    ASSERT_NE(at, std::string::npos) << result.out;
    verdicts.push_back(result.out.substr(at, result.out.find('\n', at) - at));
  }
  EXPECT_EQ(verdicts[0], verdicts[1]);
  EXPECT_EQ(verdicts[0].find("1.9"), std::string::npos) << verdicts[0];  // not "1.98x" for a slower step
}

TEST_F(PredictInput, MarkdownFormat) {
  const auto result = predict({trace_, "--gpus", "2,4", "--link", "pcie3", "--grad-bytes", "1000000", "--format", "md"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("# gpuprof predict\n", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("| GPUs |"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("**warning:**"), std::string::npos);
}

}  // namespace

namespace {

// The H200 ResNet sample's GPU is busy 91 % of the step; its host spends ~50 ms a step in pageable copy calls
// waiting for the stream. Those waits shrink with the GPU's work: strong scaling to 2 GPUs was 1.02x when they
// were replayed as fixed host work (and the warning called them launch calls).
TEST(PredictInputSamples, StrongScalingShrinksCopyCallsThatWaitForTheGpu) {
  const auto result =
      predict({sample("resnet"), "--gpus", "2", "--scaling", "strong", "--link", "nvlink4", "--format", "csv"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto row = result.out.substr(result.out.find('\n') + 1);
  std::size_t field = 0;
  for (int i = 0; i < 4; ++i) field = row.find(',', field) + 1;
  EXPECT_GT(std::stod(row.substr(field)), 1.3) << result.out;
  const auto text = predict({sample("resnet"), "--gpus", "2", "--scaling", "strong", "--link", "nvlink4"});
  EXPECT_NE(gpuprof::testing::joined_wrapped_lines(text.out)
                .find("copy calls from pageable memory blocked until the GPU reached the copy"),
            std::string::npos)
      << text.out;
  // Strong scaling saves work (the sentence may be wrapped at 120 columns).
  EXPECT_NE(gpuprof::testing::joined_wrapped_lines(text.out).find("is less than the work saved"), std::string::npos)
      << text.out;
}

}  // namespace

namespace {

// `predict --check JOB`: the link model against a multi-GPU job's own communication, rank by rank; a trace
// without communication is one line.
TEST_F(PredictInput, CheckRunsOnAMultiGpuJobAndRefusesOneWithoutCommunication) {
  const auto two = gpuprof::testing::write_gpus_trace(folder_.file("two_gpus.sqlite"), 2);
  const auto checked = predict({"--check", two, "--link", "nvlink3"});
  ASSERT_EQ(checked.exit_code, 0) << checked.err;
  EXPECT_NE(checked.out.find("median |step error|"), std::string::npos) << checked.out;
  const auto json = predict({"--check", two, "--link", "nvlink3", "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"format\":\"gpuprof.predict-check/1\""), std::string::npos) << json.out;
  expect_refused(predict({"--check", trace_, "--link", "nvlink3"}), trace_, "no communication kernels");
  expect_refused(predict({trace_, "--link", "nvlink3"}), "--gpus", "--gpus: required");
}

}  // namespace
