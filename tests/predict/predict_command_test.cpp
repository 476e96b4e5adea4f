#include <gtest/gtest.h>

#include <filesystem>

#include "synthetic_gpus_trace.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace {

using gpuprof::testing::run_process;

class PredictCommand : public ::testing::Test {
 protected:
  gpuprof::testing::TemporaryFolder folder_;
  std::string trace_ = gpuprof::testing::write_gpus_trace(folder_.file("one_gpu.sqlite"), 1);
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

// HTML reuses the report's page: style, sortable tables, every name from a file escaped.
TEST_F(PredictCommand, WritesHtmlWithEscapedNames) {
  const auto odd = folder_.file("a<b>&.sqlite");
  std::filesystem::copy_file(trace_, odd);
  const auto html = folder_.file("p.html");
  const auto result = run_process(
      {GPUPROF_BINARY, "predict", odd, "--gpus", "2,8", "--grad-bytes", "100000000", "--format", "html", "-o", html});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const auto page = gpuprof::testing::read_file(html);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("a&lt;b&gt;&amp;.sqlite"), std::string::npos);
  EXPECT_EQ(page.find("a<b>"), std::string::npos);
  EXPECT_NE(page.find("<h3>Predicted step per GPU count</h3>"), std::string::npos);
  // Each GPU count's terms under its headline, as in the text (issue 41: one set of tables for every format).
  EXPECT_NE(page.find("<h3>8 GPUs: step "), std::string::npos);
  EXPECT_NE(page.find("<th>term (predicted - measured 1-GPU step)</th>"), std::string::npos);
  EXPECT_NE(page.find("class=\"sortable\""), std::string::npos);
  EXPECT_NE(page.find("band: low end"), std::string::npos);
  EXPECT_NE(page.find("</html>"), std::string::npos);
}

// --sync and --topology (issue 37): checked as every input is, and said in the output.
TEST_F(PredictCommand, SyncAndTopologyAreCheckedAndSaid) {
  const auto two_gpus = folder_.file("topo.txt");
  gpuprof::testing::write_file(two_gpus, "\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tPHB\t0-9\nGPU1\tPHB\t X \t0-9\n");
  const auto broken = folder_.file("broken.txt");
  gpuprof::testing::write_file(broken, "\tGPU0\tGPU1\nGPU0\t X \tPHB\nGPU1\tPIX\t X \n");  // asymmetric
  const std::vector<std::string> base{GPUPROF_BINARY, "predict", trace_, "--grad-bytes", "1000000"};
  const auto run = [&](std::vector<std::string> extra) {
    auto arguments = base;
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return run_process(arguments);
  };
  for (const auto& [extra, named] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--gpus", "2", "--sync", "ps-tpu"}, "--sync"},
           {{"--gpus", "2", "--topology", broken}, broken},
           {{"--gpus", "2", "--topology", folder_.file("missing.txt")}, folder_.file("missing.txt")},
           {{"--gpus", "4", "--topology", two_gpus}, two_gpus},
           {{"--gpus", "2", "--strategy", "host-staged", "--sync", "ps-gpu"}, "--sync"},
       }) {
    const auto result = run(extra);
    EXPECT_EQ(result.exit_code, 2) << extra.back();
    EXPECT_TRUE(result.out.empty());
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_NE(result.err.find(named), std::string::npos) << result.err;
  }
  const auto chosen = run({"--gpus", "2", "--link", "pcie3-x1", "--sync", "ps-gpu", "--topology", two_gpus});
  ASSERT_EQ(chosen.exit_code, 0) << chosen.err;
  EXPECT_NE(chosen.out.find("parameter-server exchange (ps-gpu) over pcie3-x1"), std::string::npos) << chosen.out;
  EXPECT_NE(chosen.out.find("synchronisation ps-gpu (--sync)"), std::string::npos) << chosen.out;
  const auto json = run({"--gpus", "2", "--link", "pcie3-x1", "--sync", "ps-cpu", "--topology", two_gpus, "--format",
                         "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"sync\":\"ps-cpu\""), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"topology\":\"" + two_gpus + "\""), std::string::npos) << json.out;
  // The topology file is an input: -o never writes over it.
  const auto over = run({"--gpus", "2", "--topology", two_gpus, "-o", two_gpus, "--force"});
  EXPECT_EQ(over.exit_code, 2) << over.err;
  EXPECT_EQ(gpuprof::testing::read_file(two_gpus).substr(0, 5), "\tGPU0");
  // Without --sync on a link without peer access the band covers the parameter servers, and says so.
  const auto unknown = run({"--gpus", "2", "--link", "pcie3-x1"});
  ASSERT_EQ(unknown.exit_code, 0) << unknown.err;
  EXPECT_NE(unknown.out.find("the high end covers ps-cpu"), std::string::npos) << unknown.out;
}

TEST_F(PredictCommand, BadInputIsOneLineAndExitTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {"--gpus", "2"},                                                      // no gradient size
      {"--gpus", "2", "--grad-bytes", "1", "--scaling", "strnog"},          // unknown scaling
      {"--gpus", "2", "--grad-bytes", "1", "--allreduce", "ring"},          // unknown schedule
      {"--gpus", "2", "--grad-bytes", "1", "--format", "pdf"},              // unknown format
      {"--gpus", "2", "--grad-bytes", "1", "--link", "nvlink9"},            // unknown link
      {"--gpus", "0", "--grad-bytes", "1"},                                 // N < 1
      {"--gpus", "2,,8", "--grad-bytes", "1"},                              // not a list of counts
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
  // A trace without GPU work.
  const auto empty = folder_.file("host_only.sqlite");
  {
    gpuprof::trace::TraceWriter writer({.path = empty});
    writer.add(gpuprof::trace::ApiCallRow{.start_ns = 500, .end_ns = 900, .name = writer.intern("cudaMalloc")});
    writer.finish();
  }
  const auto no_work = run_process({GPUPROF_BINARY, "predict", empty, "--gpus", "2", "--grad-bytes", "1"});
  EXPECT_EQ(no_work.exit_code, 2);
  EXPECT_NE(no_work.err.find("no GPU work"), std::string::npos) << no_work.err;
  EXPECT_EQ(std::count(no_work.err.begin(), no_work.err.end(), '\n'), 1) << no_work.err;
  const auto missing = run_process({GPUPROF_BINARY, "predict", folder_.file("none.sqlite"), "--gpus", "2"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("none.sqlite"), std::string::npos);
  // A third trace is named, before any trace is read.
  const auto three =
      run_process({GPUPROF_BINARY, "predict", trace_, trace_, empty, "--gpus", "2", "--grad-bytes", "1"});
  EXPECT_EQ(three.exit_code, 2);
  EXPECT_EQ(three.err, "gpuprof: " + empty + ": predict reads one 1-GPU trace, and optionally a second one at the "
                       "per-GPU batch\n");
}

}  // namespace
