#include <gtest/gtest.h>
#include <sys/stat.h>

#include "gpuprof/study/sweep_grid.hpp"
#include "gpuprof/study/sweep_plan.hpp"
#include "gpuprof/study/workload_summary.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::study {
namespace {

SweepSettings rnn_grid() {
  SweepSettings settings;
  settings.workload = "rnn";
  settings.batches = {64, 256};
  settings.gpus = {1, 2};
  settings.steps = 20;
  return settings;
}

TEST(SweepGrid, OneGpuRunsUseStrategySingle) {
  const auto grid = expand_grid(rnn_grid());
  ASSERT_EQ(grid.size(), 4u);
  EXPECT_EQ(grid[0].name(), "rnn_b64_g1_single");
  EXPECT_EQ(grid[1].name(), "rnn_b64_g2_data-parallel");
  EXPECT_EQ(grid[2].strategy, "single");
  EXPECT_EQ(grid[3].batch, 256);
}

TEST(SweepGrid, DuplicatesAreDropped) {
  auto settings = rnn_grid();
  settings.batches = {64, 64};
  EXPECT_EQ(expand_grid(settings).size(), 2u);
}

TEST(SweepGrid, BuiltInWorkloadCommand) {
  auto settings = rnn_grid();
  settings.extra_arguments = {"--prefetch", "1"};
  const auto command = command_for(settings, expand_grid(settings)[1], "/s/summary.json", "/bin/gpuprof-workload");
  const std::vector<std::string> expected = {"/bin/gpuprof-workload", "rnn", "--batch", "64", "--gpus", "2",
                                             "--strategy", "data-parallel", "--steps", "20", "--summary",
                                             "/s/summary.json", "--prefetch", "1"};
  EXPECT_EQ(command, expected);
}

TEST(SweepGrid, PlaceholdersAreFilledIn) {
  auto settings = rnn_grid();
  settings.workload.clear();
  settings.command = "train.py --bs {batch} -n {gpus} --mode {strategy} --out {summary} {unknown}";
  const auto command = command_for(settings, expand_grid(settings)[1], "/tmp/a b.json", "");
  ASSERT_EQ(command.size(), 3u);
  EXPECT_EQ(command[0], "/bin/sh");
  EXPECT_EQ(command[2], "train.py --bs 64 -n 2 --mode data-parallel --out '/tmp/a b.json' {unknown}");
  EXPECT_EQ(program_of(settings, expand_grid(settings)[0], ""), "train.py");
}

TEST(SweepGrid, ImpossibleValuesAreRefused) {
  auto settings = rnn_grid();
  settings.batches = {64, 0};
  EXPECT_NE(check_settings(settings).find("--batch: 0"), std::string::npos);
  settings = rnn_grid();
  settings.gpus = {0};
  EXPECT_NE(check_settings(settings).find("--gpus"), std::string::npos);
  settings = rnn_grid();
  settings.workload = "bert";
  EXPECT_NE(check_settings(settings).find("unknown workload 'bert'"), std::string::npos);
  settings = rnn_grid();
  settings.strategy = "pipeline";
  EXPECT_NE(check_settings(settings).find("unknown strategy 'pipeline'"), std::string::npos);
  EXPECT_EQ(check_settings(rnn_grid()), "");
}

TEST(SweepGrid, TheMachineMustHaveTheGpusTheBuiltInWorkloadNeeds) {
  const auto settings = rnn_grid();
  const auto none = check_machine(settings, 0, "no NVIDIA driver (libcuda.so.1 cannot be loaded)");
  EXPECT_NE(none.find("no GPU to run the rnn workload on: no NVIDIA driver"), std::string::npos) << none;
  EXPECT_NE(none.find("--synthetic"), std::string::npos) << none;
  EXPECT_EQ(check_machine(settings, 1, ""), "--gpus asks for 2 GPUs, but this machine has 1 (CUDA_VISIBLE_DEVICES counts)");
  EXPECT_EQ(check_machine(settings, 2, ""), "");
  auto synthetic = settings;
  synthetic.synthetic = true;
  EXPECT_EQ(check_machine(synthetic, 0, "no driver"), "");
  SweepSettings command;
  command.command = "./train.sh {batch}";
  command.gpus = {8};
  EXPECT_EQ(check_machine(command, 0, "no driver"), "");
}

TEST(SweepGrid, SyntheticSweepsRefuseWhatHasNoMeaningForThem) {
  auto settings = rnn_grid();
  settings.synthetic = true;
  EXPECT_EQ(check_settings(settings), "");
  settings.calibrate = true;
  EXPECT_NE(check_settings(settings).find("--calibrate"), std::string::npos);
  settings.calibrate = false;
  settings.gpus = {128};
  EXPECT_NE(check_settings(settings).find("--gpus: 128 is not between 1 and 64"), std::string::npos);
  EXPECT_NE(settings_fingerprint(settings), settings_fingerprint(rnn_grid()));
}

TEST(SweepPlan, ResumeRunsOnlyWhatIsNotFinished) {
  const auto grid = expand_grid(rnn_grid());
  std::vector<RunRecord> done;
  done.push_back({1, grid[0].name(), 1, RunKind::profiled, RunStatus::ok, 0, "", 0, 0, 1.0, {}});
  done.push_back({2, grid[0].name(), 2, RunKind::profiled, RunStatus::failed, 2, "x", 0, 0, 1.0, {}});
  done.push_back({3, grid[1].name(), 1, RunKind::profiled, RunStatus::running, {}, "", 0, 0, 0, {}});
  const auto plan = plan_sweep(grid, 2, false, done);
  ASSERT_EQ(plan.size(), 6u);  // 8 runs, 2 finished; the interrupted one is run again
  EXPECT_EQ(plan[0], (PlannedRun{grid[1], 1, RunKind::profiled}));
  EXPECT_EQ(plan[1], (PlannedRun{grid[1], 2, RunKind::profiled}));
  const auto with_calibration = plan_sweep(grid, 2, true, done);
  EXPECT_EQ(with_calibration.size(), 10u);
  EXPECT_EQ(with_calibration[0], (PlannedRun{grid[0], 1, RunKind::calibration}));
}

TEST(WorkloadSummary, ReadsTheWorkloadFormat) {
  const auto summary = parse_workload_summary(R"({"format":"gpuprof.workload/1",
    "configuration":{"model":"rnn","steps":40},
    "epochs":[{"epoch":0,"steps":20},{"epoch":1,"steps":20}],
    "training_seconds":2.5,"samples_per_second":1000.0,
    "final":{"train_accuracy":0.75,"validation_accuracy":0.7,"validation_loss":null}})");
  ASSERT_TRUE(summary);
  EXPECT_EQ(summary->epochs, 2);
  EXPECT_EQ(summary->steps, 40);
  EXPECT_EQ(summary->training_seconds, 2.5);
  EXPECT_EQ(summary->accuracy, 0.75);
  EXPECT_EQ(summary->validation_accuracy, 0.7);
  EXPECT_EQ(summary->model, "rnn");
  EXPECT_FALSE(parse_workload_summary("not json"));
}

// Issue 40: the program under study writes the summary; a FIFO in its place blocked the sweep forever.
TEST(WorkloadSummary, OnlyARegularFileIsRead) {
  testing::TemporaryFolder folder;
  const auto fifo = folder.file("summary.json");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(read_workload_summary(fifo));
  EXPECT_FALSE(read_workload_summary(folder.path().string()));
  const auto file = folder.file("good.json");
  testing::write_file(file, R"({"format":"gpuprof.workload/1","training_seconds":2.5})");
  ASSERT_TRUE(read_workload_summary(file));
  EXPECT_EQ(read_workload_summary(file)->training_seconds, 2.5);
}

}  // namespace
}  // namespace gpuprof::study
