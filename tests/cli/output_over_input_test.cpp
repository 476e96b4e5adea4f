// No command writes over one of its inputs, however the output is spelled
// (issue 16), and report and compare keep an existing output without --force.
#include <algorithm>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

namespace fs = std::filesystem;

const char* kKinetoTrace = R"json({"traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"device": 0}}]})json";

class OutputOverInput : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = folder_.file("T.sqlite");
    const auto made = gpuprof({"synth", "-o", trace_, "--steps", "3", "--devices", "1"});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    original_ = read_file(trace_);
  }

  // Refused with one line and exit 2, the input byte for byte as before.
  void expect_refused(const std::vector<std::string>& arguments, const std::string& input) {
    const auto before = read_file(input);
    const auto result = gpuprof(arguments);
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_NE(result.err.find("refusing to write over it"), std::string::npos) << result.err;
    EXPECT_TRUE(result.out.empty()) << result.out;
    EXPECT_EQ(read_file(input), before) << "the input was changed by gpuprof " << arguments.front();
  }

  TemporaryFolder folder_;
  std::string trace_;
  std::string original_;
};

TEST_F(OutputOverInput, ReportInAnyFormatAndSpelling) {
  for (const char* format : {"text", "json", "md", "csv", "html"}) {
    expect_refused({"report", trace_, "--format", format, "-o", trace_}, trace_);
    expect_refused({"report", trace_, "--format", format, "-o", trace_, "--force"}, trace_);
  }
  const auto spelled = (folder_.path() / "." / "." / "." / "T.sqlite").string();
  expect_refused({"report", trace_, "-o", spelled, "--force"}, trace_);
  // The input named through its folder: the folder stands for the traces in it.
  expect_refused({"report", folder_.path().string(), "-o", trace_, "--force"}, trace_);
}

TEST_F(OutputOverInput, SymbolicAndHardLinksAreTheInput) {
  fs::create_symlink(trace_, folder_.file("link.sqlite"));
  fs::create_hard_link(trace_, folder_.file("hard.sqlite"));
  expect_refused({"report", trace_, "-o", folder_.file("link.sqlite"), "--force"}, trace_);
  expect_refused({"report", trace_, "-o", folder_.file("hard.sqlite"), "--force"}, trace_);
  expect_refused({"export", trace_, "--chrome-trace", folder_.file("hard.sqlite"), "--force"}, trace_);
}

TEST_F(OutputOverInput, CsvIntoAFolderChecksEveryFileItWrites) {
  // A trace that happens to carry the name of one of the tables, inside the output folder.
  fs::create_directory(folder_.file("out"));
  fs::copy_file(trace_, folder_.file("out/devices.csv"));
  expect_refused({"report", folder_.file("out/devices.csv"), "--format", "csv", "-o", folder_.file("out") + "/",
                  "--force"},
                 folder_.file("out/devices.csv"));
  EXPECT_EQ(std::distance(fs::directory_iterator(folder_.file("out")), fs::directory_iterator()), 1)
      << "a table was written before the check";
}

TEST_F(OutputOverInput, CompareExportAndImport) {
  expect_refused({"compare", trace_, trace_, "-o", trace_}, trace_);
  expect_refused({"compare", trace_, trace_, "-o", trace_, "--force"}, trace_);
  expect_refused({"export", trace_, "--chrome-trace", trace_, "--force"}, trace_);
  const auto kineto = folder_.file("k.json");
  write_file(kineto, kKinetoTrace);
  expect_refused({"report", kineto, "-o", kineto, "--force"}, kineto);
  expect_refused({"import", kineto, "-o", kineto, "--force"}, kineto);
  // Several inputs into a folder: the import of x.sqlite would land on x.sqlite itself.
  const auto second = folder_.file("k2.json");
  write_file(second, kKinetoTrace);
  fs::copy_file(kineto, folder_.file("k.sqlite"));
  expect_refused({"import", folder_.file("k.sqlite"), second, "--format", "kineto", "-o", folder_.path().string(),
                  "--force"},
                 folder_.file("k.sqlite"));
}

TEST_F(OutputOverInput, RecordSparesTheProgramItRuns) {
  const auto script = folder_.file("train.sh");
  write_file(script, "#!/bin/sh\nexit 0\n");
  expect_refused({"record", "-o", script, "--force", "--", "/bin/sh", script}, script);
}

// sweep --force empties the study's logs/, traces/ and summaries/: not when a workload argument lives there.
TEST_F(OutputOverInput, SweepKeepsAFileItsRunsRead) {
  const auto study = folder_.file("S");
  fs::create_directories(study + "/logs");
  const auto data = study + "/logs/data.bin";
  write_file(data, "input batches");
  expect_refused({"sweep", "--synthetic", "--workload", "rnn", "--batch", "64", "--gpus", "1", "--steps", "2",
                  "--force", "-o", study, "--", data},
                 data);
}

TEST_F(OutputOverInput, ReportAndCompareKeepAnExistingOutputWithoutForce) {
  const auto output = folder_.file("report.txt");
  write_file(output, "keep me");
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"report", trace_, "-o", output}, {"compare", trace_, trace_, "-o", output}}) {
    const auto refused = gpuprof(command);
    expect_bad_input(refused, output, "already exists (use --force to overwrite)");
    EXPECT_EQ(read_file(output), "keep me");
    auto forced = command;
    forced.push_back("--force");
    const auto written = gpuprof(forced);
    EXPECT_EQ(written.exit_code, 0) << written.err;
    EXPECT_NE(read_file(output), "keep me");
    write_file(output, "keep me");
  }
}

}  // namespace
}  // namespace gpuprof::testing
