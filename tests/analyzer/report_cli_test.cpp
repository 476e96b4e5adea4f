#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sys/wait.h>

#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

namespace fs = std::filesystem;

class ReportCli : public ::testing::Test {
 protected:
  // Runs `gpuprof report ARGS`, keeping stderr in a file; returns the exit code.
  int report(const std::string& arguments) {
    const auto command = std::string(GPUPROF_BINARY) + " report " + arguments + " > " + folder_.file("stdout") +
                         " 2> " + folder_.file("stderr");
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string error_text() { return gpuprof::testing::read_file(folder_.file("stderr")); }
  std::string output_text() { return gpuprof::testing::read_file(folder_.file("stdout")); }
  std::string synthetic(const std::string& name, int rank) {
    synthetic::SynthOptions options;
    options.devices = 2;
    options.steps = 4;
    options.kernels_per_step = 10;
    options.rank = rank;
    options.world_size = 2;
    const auto path = folder_.file(name);
    synthetic::write_synthetic_trace(path, options);
    return path;
  }

  gpuprof::testing::TemporaryFolder folder_;
};

TEST_F(ReportCli, MissingFileIsBadInput) {
  EXPECT_EQ(report(folder_.file("absent.sqlite")), 2);
  EXPECT_NE(error_text().find("absent.sqlite"), std::string::npos);
}

TEST_F(ReportCli, ForeignFileIsBadInputAndWritesNothing) {
  gpuprof::testing::write_file(folder_.file("foreign.sqlite"), "this is not a database");
  EXPECT_EQ(report(folder_.file("foreign.sqlite") + " --format json -o " + folder_.file("out.json")), 2);
  EXPECT_FALSE(fs::exists(folder_.file("out.json")));
}

TEST_F(ReportCli, TraceWithoutGpuActivityIsBadInput) {
  {
    trace::WriterOptions options;
    options.path = folder_.file("empty.sqlite");
    trace::TraceWriter writer(options);
    trace::RangeRow range;
    range.start_ns = 0;
    range.end_ns = 10;
    range.name = writer.intern("step 0");
    writer.add(range);
    writer.finish();
  }
  EXPECT_EQ(report(folder_.file("empty.sqlite") + " -o " + folder_.file("out.txt")), 2);
  EXPECT_NE(error_text().find("no GPU activity"), std::string::npos);
  EXPECT_FALSE(fs::exists(folder_.file("out.txt")));
}

TEST_F(ReportCli, DuplicateRanksAreBadInput) {
  const auto first = synthetic("a.sqlite", 0);
  const auto second = synthetic("b.sqlite", 0);
  EXPECT_EQ(report(first + " " + second + " -o " + folder_.file("out.txt")), 2);
  EXPECT_NE(error_text().find("rank 0"), std::string::npos);
  EXPECT_FALSE(fs::exists(folder_.file("out.txt")));
}

TEST_F(ReportCli, BadOptionsAreBadInput) {
  const auto trace = synthetic("a.sqlite", 0);
  EXPECT_EQ(report(trace + " --format pdf"), 2);
  EXPECT_EQ(report(trace + " --window forever"), 2);
  EXPECT_EQ(report(trace + " --sections everything"), 2);
  EXPECT_EQ(report(trace + " --step-pattern '(['"), 2);
}

TEST_F(ReportCli, StepPatternMatchingNothingFallsBackToSpan) {
  const auto trace = synthetic("a.sqlite", 0);
  EXPECT_EQ(report(trace + " --step-pattern '^iteration' --format json"), 0);
  EXPECT_NE(error_text().find("matches no annotation"), std::string::npos);
  EXPECT_NE(output_text().find("\"window_source\": \"span\""), std::string::npos);
}

TEST_F(ReportCli, TwoRanksJsonAndSave) {
  const auto first = synthetic("a.sqlite", 0);
  const auto second = synthetic("b.sqlite", 1);
  EXPECT_EQ(report(first + " " + second + " --format json --save -o " + folder_.file("out.json")), 0) << error_text();
  const auto json = gpuprof::testing::read_file(folder_.file("out.json"));
  EXPECT_NE(json.find("\"format\": \"gpuprof.report/2\""), std::string::npos);
  EXPECT_NE(json.find("\"rank\": 1"), std::string::npos);
  trace::TraceFile file(second);
  const auto steps = file.steps();
  EXPECT_EQ(steps.size(), 2U * 4U);
  EXPECT_EQ(steps.front().rank, 1);
  EXPECT_EQ(file.gaps().size(), 2U * 3U);
}

TEST_F(ReportCli, EveryFormatWrites) {
  const auto trace = synthetic("a.sqlite", 0);
  for (const std::string format : {"text", "md", "csv", "json", "html"}) {
    const auto output = folder_.file("out." + format);
    EXPECT_EQ(report(trace + " --format " + format + " -o " + output), 0) << format << ": " << error_text();
    EXPECT_GT(fs::file_size(output), 100U) << format;
  }
}

}  // namespace
}  // namespace gpuprof
