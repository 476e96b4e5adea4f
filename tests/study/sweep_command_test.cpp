// End to end on the CPU: `gpuprof sweep --command` with a small shell script
// that writes a summary and, standing in for the collector, a synthetic trace
// where `gpuprof record` tells the collector to write one.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "gpuprof_command.hpp"
#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

namespace fs = std::filesystem;

// Step time 2 ms + 0.1 ms per sample on 1 GPU, 12.7 ms + 0.0589 ms per sample on 2:
// the GRU case of DESIGN.md, breaking even near batch 260. Batch 128 on 2 GPUs runs out of memory.
std::string script_text(const std::string& log) {
  return std::string("#!/bin/sh\n") + "b=$1; g=$2; s=$3; summary=$4\n" + "echo \"$b $g $s\" >> '" + log + "'\n" +
         "if [ \"$b\" = 128 ] && [ \"$g\" = 2 ]; then echo \"out of memory: try a smaller --batch\" >&2; exit 2; fi\n"
         "if [ \"$g\" = 1 ]; then t=$(awk \"BEGIN{print 10*(0.002+0.0001*$b)}\");\n"
         "else t=$(awk \"BEGIN{print 10*(0.0127+0.0000589*$b)}\"); fi\n"
         "printf '{\"format\":\"gpuprof.workload/1\",\"configuration\":{\"model\":\"toy\",\"steps\":10},"
         "\"training_seconds\":%s,\"samples_per_second\":%s,\"final\":{\"train_accuracy\":0.5,"
         "\"validation_accuracy\":0.25}}' \"$t\" \"$(awk \"BEGIN{print 10*$b/$t}\")\" > \"$summary\"\n"
         "if [ -n \"$GPUPROF_OUTPUT\" ]; then\n"
         "  out=$(echo \"$GPUPROF_OUTPUT\" | sed \"s/%p/$$/\")\n"
         "  '" GPUPROF_BINARY "' synth -o \"$out\" --devices \"$g\" --steps 4 > /dev/null 2>&1\n"
         "fi\n";
}

struct Sweep {
  TemporaryFolder folder;
  std::string script = folder.file("train.sh");
  std::string log = folder.file("calls.log");
  std::string study = folder.file("study");

  Sweep() {
    write_file(script, script_text(log));
    ::chmod(script.c_str(), 0755);
  }
  std::vector<std::string> arguments(const std::string& batches = "64,128,1024") const {
    return {"sweep", "--command", script + " {batch} {gpus} {strategy} {summary}", "--batch", batches,
            "--gpus", "1,2", "--steps", "10", "-o", study};
  }
  std::vector<std::string> calls() const {
    std::vector<std::string> lines;
    std::ifstream file(log);
    for (std::string line; std::getline(file, line);) lines.push_back(line);
    return lines;
  }
  void sql(const std::string& statement) const {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((study + "/study.sqlite").c_str(), &db), SQLITE_OK);
    EXPECT_EQ(sqlite3_exec(db, statement.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    sqlite3_close(db);
  }
  std::string query(const std::string& statement) const {
    sqlite3* db = nullptr;
    sqlite3_open((study + "/study.sqlite").c_str(), &db);
    std::string result;
    sqlite3_exec(
        db, statement.c_str(),
        [](void* out, int columns, char** values, char**) {
          auto& text = *static_cast<std::string*>(out);
          for (int i = 0; i < columns; ++i) text += std::string(values[i] ? values[i] : "NULL") + (i + 1 < columns ? "|" : "\n");
          return 0;
        },
        &result, nullptr);
    sqlite3_close(db);
    return result;
  }
};

void expect_one_line_exit_2(const ProcessResult& result, const std::string& text) {
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  EXPECT_NE(result.err.find(text), std::string::npos) << result.err;
}

// A sweep records every run with gpuprof record, which needs the collector;
// a build without the CUDA toolkit has none.
class SweepRecording : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!GPUPROF_HAVE_COLLECTOR) GTEST_SKIP() << "built without the collector (no CUDA toolkit): gpuprof record cannot run";
  }
};

TEST_F(SweepRecording, RunsTheGridRecordsFailuresAndReports) {
  Sweep sweep;
  auto arguments = sweep.arguments();
  arguments.push_back("--calibrate");
  const auto result = gpuprof(arguments);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  // stderr is a file here, not a terminal: no progress line, but every failed run is named.
  EXPECT_EQ(result.err.find("[1/12]"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("command_b128_g2_data-parallel repeat 1/1 failed: exit 2"), std::string::npos);
  EXPECT_EQ(sweep.query("SELECT value FROM meta WHERE key = 'format'"), "gpuprof.study\n");
  EXPECT_EQ(sweep.query("SELECT status, exit_code, error LIKE '%out of memory%' FROM runs "
                        "WHERE configuration = 'command_b128_g2_data-parallel' ORDER BY kind"),
            "skipped|NULL|0\nfailed|2|1\n");
  EXPECT_EQ(sweep.query("SELECT count(*) FROM runs WHERE status = 'ok'"), "10\n");
  EXPECT_EQ(sweep.query("SELECT count(*) FROM runs WHERE kind = 'profiled' AND status = 'ok' AND trace_paths LIKE "
                        "'traces/%/repeat1_%.sqlite'"),
            "5\n");
  EXPECT_EQ(sweep.query("SELECT count(*) FROM results WHERE time_source = 'summary' AND seconds_per_step > 0"), "10\n");

  const auto report = gpuprof({"study", sweep.study, "--format", "json"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("\"outcome\": \"breaks_even\""), std::string::npos) << report.out;
  EXPECT_NE(report.out.find("\"exposed_transfer_ns\""), std::string::npos) << report.out;
  EXPECT_NE(report.out.find("\"overhead\": "), std::string::npos);
  // The waterfall against the 1-GPU run, from the comparison library.
  EXPECT_NE(report.out.find("\"base\": \"command_b64_g1_single\""), std::string::npos) << report.out;
  for (const char* format : {"text", "md", "csv", "html"}) {
    const auto rendered = gpuprof({"study", sweep.study, "--format", format});
    EXPECT_EQ(rendered.exit_code, 0) << format << rendered.err;
    EXPECT_NE(rendered.out.find("1024"), std::string::npos) << format;
  }
  const auto html = gpuprof({"study", sweep.study, "--format", "html", "-o", sweep.folder.file("study.html")});
  EXPECT_EQ(html.exit_code, 0);
  EXPECT_NE(read_file(sweep.folder.file("study.html")).find("<svg"), std::string::npos);
}

TEST_F(SweepRecording, NeverOverwritesAStudy) {
  Sweep sweep;
  ASSERT_EQ(gpuprof(sweep.arguments("64")).exit_code, 0);
  expect_one_line_exit_2(gpuprof(sweep.arguments("64")), "already exists (use --resume to continue it, or --force");
  EXPECT_EQ(sweep.calls().size(), 2u);
  EXPECT_EQ(gpuprof([&] { auto a = sweep.arguments("64"); a.push_back("--force"); return a; }()).exit_code, 0);
  EXPECT_EQ(sweep.calls().size(), 4u);
}

TEST_F(SweepRecording, ResumeRunsOnlyTheUnfinishedRuns) {
  Sweep sweep;
  ASSERT_EQ(gpuprof(sweep.arguments("64,1024")).exit_code, 0);
  // As an interrupted sweep leaves it: one run still `running`, one never started.
  sweep.sql("UPDATE runs SET status = 'running' WHERE configuration = 'command_b64_g2_data-parallel';"
            "DELETE FROM results WHERE run_id IN (SELECT id FROM runs WHERE configuration = 'command_b1024_g2_data-parallel');"
            "DELETE FROM runs WHERE configuration = 'command_b1024_g2_data-parallel';");
  fs::remove(sweep.log);
  auto arguments = sweep.arguments("64,1024");
  arguments.push_back("--resume");
  const auto result = gpuprof(arguments);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(sweep.calls(), (std::vector<std::string>{"64 2 data-parallel", "1024 2 data-parallel"}));
  EXPECT_EQ(sweep.query("SELECT count(*) FROM runs WHERE status = 'ok'"), "4\n");
  EXPECT_EQ(sweep.query("SELECT count(*) FROM configurations"), "4\n");
}

TEST_F(SweepRecording, ResumeRefusesOtherSettings) {
  Sweep sweep;
  ASSERT_EQ(gpuprof(sweep.arguments("64")).exit_code, 0);
  auto arguments = sweep.arguments("64");
  arguments[arguments.size() - 3] = "20";  // --steps
  arguments.push_back("--resume");
  expect_one_line_exit_2(gpuprof(arguments), "was swept with other settings");
}

TEST_F(SweepRecording, MissingProgramForSomeConfigurationsIsRecorded) {
  Sweep sweep;
  fs::copy_file(sweep.script, sweep.folder.file("train_64.sh"));
  const auto result = gpuprof({"sweep", "--command", sweep.folder.file("train_{batch}.sh") + " {batch} {gpus} {strategy} {summary}",
                               "--batch", "64,128", "--gpus", "1", "--steps", "10", "-o", sweep.study});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(sweep.query("SELECT configuration, status, exit_code FROM runs ORDER BY id"),
            "command_b64_g1_single|ok|0\ncommand_b128_g1_single|failed|127\n");
  EXPECT_NE(sweep.query("SELECT error FROM runs WHERE status = 'failed'").find("command not found"), std::string::npos);
}

TEST(SweepCommand, ACommandThatExistsNowhereIsBadInput) {
  Sweep sweep;
  expect_one_line_exit_2(gpuprof({"sweep", "--command", "no-such-program-xyz {batch}", "--batch", "64", "--gpus", "1",
                                  "-o", sweep.study}),
                         "command not found: no-such-program-xyz");
  EXPECT_FALSE(fs::exists(sweep.study + "/study.sqlite"));
}

TEST(SweepCommand, ABuiltInWorkloadWithoutAGpuIsRefusedBeforeAnythingRuns) {
  if (fs::exists("/dev/nvidia0")) GTEST_SKIP() << "this machine has a GPU";
  Sweep sweep;
  // A stand-in workload that leaves a trace of being started.
  const auto workload = sweep.folder.file("workload.sh");
  write_file(workload, "#!/bin/sh\necho started >> '" + sweep.log + "'\n");
  ::chmod(workload.c_str(), 0755);
  ::setenv("GPUPROF_WORKLOAD", workload.c_str(), 1);
  const auto result = gpuprof({"sweep", "--workload", "rnn", "--batch", "64", "--gpus", "1", "-o", sweep.study});
  ::unsetenv("GPUPROF_WORKLOAD");
  expect_one_line_exit_2(result, "no GPU to run the rnn workload on");
  EXPECT_NE(result.err.find("--synthetic"), std::string::npos) << result.err;
  EXPECT_FALSE(fs::exists(sweep.study));
  EXPECT_TRUE(sweep.calls().empty());
}

TEST(SweepCommand, ASyntheticSweepRunsAnywhereAndSaysSoInEveryOutput) {
  Sweep sweep;
  const auto result = gpuprof({"sweep", "--workload", "rnn", "--synthetic", "--batch", "64,1024", "--gpus", "1,2",
                               "--steps", "6", "-o", sweep.study});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("sweep done: 4 ok, 0 failed"), std::string::npos) << result.err;
  EXPECT_EQ(sweep.query("SELECT value FROM meta WHERE key = 'synthetic'"), "1\n");
  EXPECT_EQ(sweep.query("SELECT count(*) FROM results WHERE time_source = 'synthetic trace' AND seconds_per_step > 0"),
            "4\n");
  const auto json = gpuprof({"study", sweep.study, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"synthetic\": true"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"exposed_transfer_ns\""), std::string::npos) << json.out;
  for (const char* format : {"text", "md", "html", "json"}) {
    const auto rendered = gpuprof({"study", sweep.study, "--format", format});
    EXPECT_EQ(rendered.exit_code, 0) << format << rendered.err;
    EXPECT_NE(rendered.out.find("SYNTHETIC Scaling study: rnn"), std::string::npos) << format << rendered.out;
  }
  // Each trace says its batch, so compare needs no assumption.
  const auto traces = sweep.query("SELECT trace_paths FROM runs ORDER BY id");
  EXPECT_NE(traces.find("traces/rnn_b1024_g2_data-parallel/repeat1_synthetic.sqlite"), std::string::npos) << traces;
  const auto compare = gpuprof({"compare", sweep.study + "/traces/rnn_b1024_g1_single/repeat1_synthetic.sqlite",
                                sweep.study + "/traces/rnn_b1024_g2_data-parallel/repeat1_synthetic.sqlite"});
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_EQ(compare.out.find("ASSUMPTION"), std::string::npos) << compare.out;
  EXPECT_NE(compare.out.find("meta batch_size x ranks"), std::string::npos) << compare.out;
}

TEST(SweepCommand, ImpossibleGridsAreBadInput) {
  Sweep sweep;
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> arguments = {"sweep", "-o", sweep.study};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return gpuprof(arguments);
  };
  expect_one_line_exit_2(with({"--workload", "rnn", "--batch", "0,64"}), "--batch: 0 is not between 1");
  expect_one_line_exit_2(with({"--workload", "rnn", "--gpus", "0"}), "--gpus: 0 is not between 1");
  expect_one_line_exit_2(with({"--workload", "bert"}), "unknown workload 'bert'");
  expect_one_line_exit_2(with({"--workload", "rnn", "--strategy", "pipeline"}), "unknown strategy 'pipeline'");
  expect_one_line_exit_2(with({"--workload", "rnn", "--batch", "64,abc"}), "--batch: expected a comma-separated list");
  EXPECT_FALSE(fs::exists(sweep.study));
}

TEST(SweepCommand, UnwritableFolderIsBadInput) {
  Sweep sweep;
  write_file(sweep.folder.file("plain-file"), "x");
  expect_one_line_exit_2(gpuprof({"sweep", "--command", sweep.script + " {batch} 1 single {summary}", "--batch", "64",
                                  "--gpus", "1", "-o", sweep.folder.file("plain-file") + "/study"}),
                         "cannot create the study folder");
}

TEST_F(SweepRecording, StudyOfAnotherVersionIsRefused) {
  Sweep sweep;
  fs::create_directories(sweep.study);
  sweep.sql("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
            "INSERT INTO meta VALUES('format', 'gpuprof.study'), ('version', '99');");
  auto arguments = sweep.arguments("64");
  arguments.push_back("--resume");
  expect_one_line_exit_2(gpuprof(arguments), "study version 99 is not supported");
  expect_one_line_exit_2(gpuprof({"study", sweep.study}), "study version 99 is not supported");
  expect_one_line_exit_2(gpuprof({"study", sweep.folder.file("nothing")}), "no study here");
}

}  // namespace
}  // namespace gpuprof::testing

namespace gpuprof::testing {
namespace {

// `study --predict-link` (issue 29): with only 1-GPU runs, a predicted N-GPU column and break-even; with N-GPU
// runs, the measured speedup beside the predicted one and the error.
TEST(StudyPredictions, OneGpuSweepsGetAPredictedColumnAndNGpuSweepsTheError) {
  Sweep only_one, both;
  ASSERT_EQ(gpuprof({"sweep", "--workload", "rnn", "--synthetic", "--batch", "64,256,1024", "--gpus", "1", "--steps",
                     "6", "-o", only_one.study})
                .exit_code,
            0);
  ASSERT_EQ(gpuprof({"sweep", "--workload", "rnn", "--synthetic", "--batch", "64,1024", "--gpus", "1,2", "--steps", "6",
                     "-o", both.study})
                .exit_code,
            0);
  const std::vector<std::string> predict = {"--predict-link", "pcie3", "--predict-grad-bytes", "20000000",
                                            "--format", "json"};
  auto arguments = std::vector<std::string>{"study", only_one.study};
  arguments.insert(arguments.end(), predict.begin(), predict.end());
  const auto alone = gpuprof(arguments);
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  EXPECT_NE(alone.out.find("\"predictions\""), std::string::npos) << alone.out;
  EXPECT_NE(alone.out.find("\"measured_speedup\": null"), std::string::npos) << alone.out;  // nothing to compare
  EXPECT_NE(alone.out.find("\"outcome\""), std::string::npos) << alone.out;  // the predicted break-even
  EXPECT_EQ(alone.out.find("\"error\": 0"), std::string::npos);
  arguments = {"study", both.study};
  arguments.insert(arguments.end(), predict.begin(), predict.end());
  const auto measured = gpuprof(arguments);
  ASSERT_EQ(measured.exit_code, 0) << measured.err;
  EXPECT_EQ(measured.out.find("\"measured_speedup\": null"), std::string::npos) << measured.out;
  EXPECT_NE(measured.out.find("\"error\": "), std::string::npos) << measured.out;
  const auto text = gpuprof({"study", both.study, "--predict-link", "pcie3", "--predict-grad-bytes", "20000000"});
  EXPECT_NE(text.out.find("Predicted from the 1-GPU traces"), std::string::npos) << text.out;
  // Without a gradient size nothing is predicted, never guessed: one line naming the study's option, exit 2.
  expect_one_line_exit_2(gpuprof({"study", both.study, "--predict-link", "pcie3"}),
                         "no prediction for batch 64 on 2 GPUs");
  expect_one_line_exit_2(gpuprof({"study", both.study, "--predict-link", "pcie3"}), "--predict-grad-bytes");
  // An unknown link or strategy is bad input.
  EXPECT_EQ(gpuprof({"study", both.study, "--predict-link", "pcie9"}).exit_code, 2);
  EXPECT_EQ(gpuprof({"study", both.study, "--predict-link", "pcie3", "--predict-strategy", "x"}).exit_code, 2);
  // GPU counts and byte counts get predict's checks under the study's names (0 GPUs was a SIGFPE; 4294967298
  // wrapped to 2).
  for (const char* gpus : {"0", "4294967298", "2,,4"})
    expect_one_line_exit_2(gpuprof({"study", both.study, "--predict-link", "pcie3", "--predict-grad-bytes", "20000000",
                                    "--predict-gpus", gpus}),
                           "--predict-gpus");
  for (const char* bytes : {"0", "-5"})
    EXPECT_EQ(gpuprof({"study", both.study, "--predict-link", "pcie3", "--predict-grad-bytes", bytes}).exit_code, 2)
        << bytes;
  // No --predict-link: the traces' GPU chooses it, and the study says so.
  const auto chosen = gpuprof({"study", both.study, "--predict-grad-bytes", "20000000"});
  ASSERT_EQ(chosen.exit_code, 0) << chosen.err;
  EXPECT_NE(chosen.out.find("link nvlink4 chosen from the trace's GPU"), std::string::npos) << chosen.out;
  const auto listed = gpuprof({"study", both.study, "--predict-link", "pcie3", "--predict-grad-bytes", "20000000",
                               "--predict-gpus", "2,4", "--format", "json"});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_NE(listed.out.find("\"gpus\": 4"), std::string::npos) << listed.out;
}

}  // namespace
}  // namespace gpuprof::testing
