#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "import_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

namespace fs = std::filesystem;

struct CommandRun {
  int exit_code = -1;
  std::string output;
};

CommandRun run_gpuprof(const std::string& arguments) {
  CommandRun run;
  const std::string command = std::string(GPUPROF_BINARY) + " " + arguments + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) run.output += buffer;
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

const char* kSmallTrace = R"json({"distributedInfo": {"rank": 1, "world_size": 2}, "traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"device": 0}}]})json";

class ImportCli : public ::testing::Test {
 protected:
  void expect_bad_input(const std::string& input, const std::string& problem) {
    const std::string output = folder.file("out.sqlite");
    const CommandRun run = run_gpuprof("import " + input + " -o " + output);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find(input), std::string::npos) << run.output;
    EXPECT_NE(run.output.find(problem), std::string::npos) << run.output;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << run.output;
    for (const auto& entry : fs::directory_iterator(folder.path())) {
      EXPECT_EQ(entry.path().filename().string().find("out.sqlite"), std::string::npos) << entry.path();
    }
  }
  testing::TemporaryFolder folder;
};

TEST_F(ImportCli, ImportsOneFileAndPrintsASummary) {
  testing::write_file(folder.file("rank1.json"), kSmallTrace);
  const CommandRun run = run_gpuprof("import " + folder.file("rank1.json") + " -o " + folder.file("rank1.sqlite"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("kernels 1"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("rank 1 of 2"), std::string::npos) << run.output;
  EXPECT_TRUE(fs::exists(folder.file("rank1.sqlite")));
  // A second import refuses to overwrite without --force.
  EXPECT_EQ(run_gpuprof("import " + folder.file("rank1.json") + " -o " + folder.file("rank1.sqlite")).exit_code, 2);
  EXPECT_EQ(run_gpuprof("import --force " + folder.file("rank1.json") + " -o " + folder.file("rank1.sqlite"))
                .exit_code, 0);
}

TEST_F(ImportCli, SeveralInputsGoToAFolder) {
  testing::write_file(folder.file("worker0.json"), kSmallTrace);
  testing::write_gzip_file(folder.file("worker1.pt.trace.json.gz"), kSmallTrace);
  const CommandRun run = run_gpuprof("import " + folder.file("worker0.json") + " " + folder.file("worker1.pt.trace.json.gz") +
                              " -o " + folder.file("ranks"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_TRUE(fs::exists(folder.file("ranks/worker0.sqlite")));
  EXPECT_TRUE(fs::exists(folder.file("ranks/worker1.pt.trace.sqlite")));
}

TEST_F(ImportCli, ExportReadsForeignFilesDirectly) {
  testing::write_file(folder.file("rank1.json"), kSmallTrace);
  testing::write_sqlite_file(folder.file("run.nvvp"),
                             testing::read_file(GPUPROF_SOURCE_DIR "/tests/importers/data/nvprof_database.sql"));
  const struct {
    std::string input, kernel;
  } cases[] = {{folder.file("rank1.json"), "\"k\""}, {folder.file("run.nvvp"), "kernel(float*)"}};
  for (const auto& [input, kernel] : cases) {
    const std::string output = input + ".chrome.json";
    const CommandRun run = run_gpuprof("export " + input + " --chrome-trace " + output);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(testing::read_file(output).find(kernel), std::string::npos) << input;
  }
  // The input is left as it was, and nothing but the output appears beside it.
  EXPECT_EQ(testing::read_file(folder.file("rank1.json")), kSmallTrace);
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder.path())) ++files;
  EXPECT_EQ(files, 4u);
}

TEST_F(ImportCli, MissingFile) { expect_bad_input(folder.file("nothing.json"), "no such file"); }

TEST_F(ImportCli, InvalidJson) {
  testing::write_file(folder.file("broken.json"), R"json({"traceEvents": [{"ph": )json");
  expect_bad_input(folder.file("broken.json"), "not valid JSON");
}

TEST_F(ImportCli, JsonThatIsNotATrace) {
  testing::write_file(folder.file("package.json"), R"json({"name": "x", "version": "1.0"})json");
  expect_bad_input(folder.file("package.json"), "not a Kineto");
}

TEST_F(ImportCli, TruncatedGzip) {
  testing::write_gzip_file(folder.file("whole.json.gz"), std::string(kSmallTrace) + std::string(100000, ' '));
  std::string bytes = testing::read_file(folder.file("whole.json.gz"));
  bytes.resize(bytes.size() - 20);
  testing::write_file(folder.file("cut.json.gz"), bytes);
  expect_bad_input(folder.file("cut.json.gz"), "truncated");
}

TEST_F(ImportCli, SqliteFromAnotherTool) {
  testing::write_sqlite_file(folder.file("places.sqlite"), "CREATE TABLE moz_places (url TEXT);");
  expect_bad_input(folder.file("places.sqlite"), "another tool");
}

}  // namespace
}  // namespace gpuprof
