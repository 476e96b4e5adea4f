#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <sys/wait.h>
#include <tuple>

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

// One process driving two GPUs, one trace: each runs a kernel [100, 200) and then the all-reduce until 1500,
// device 0 from 500 and device 1 from 800. A plain report of the one file gives each device's idle time before
// the other device arrived to peer_wait: 300 ns each (tests/job/local_peer_waits_test.cpp has every figure).
TEST_F(ReportCli, OneTraceOfTwoGpusGivesTheWaitForTheLateGpuToPeerWait) {
  const auto path = folder_.file("two_gpus.sqlite");
  {
    trace::WriterOptions options;
    options.path = path;
    trace::TraceWriter writer(options);
    const auto launch = [&writer](std::int64_t start, std::int64_t correlation) {
      trace::ApiCallRow call;
      call.process_id = 1, call.thread_id = 1, call.start_ns = start, call.end_ns = start + 10;
      call.correlation_id = correlation;
      call.name = writer.intern("cudaLaunchKernel");
      writer.add(call);
    };
    const auto kernel = [&writer](std::int32_t device, std::int64_t start, std::string_view name,
                                  std::int64_t end, std::int64_t correlation) {
      trace::KernelRow row;
      row.device = device, row.stream = 7 + device, row.start_ns = start, row.end_ns = end;
      row.correlation_id = correlation;
      row.name = writer.intern(name);
      writer.add(row);
    };
    const std::string all_reduce = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
    for (const auto& [device, start, launched] : {std::tuple{0, 500, 30}, std::tuple{1, 800, 700}}) {
      const std::int64_t correlation = 10 * (device + 1);
      launch(10 + device, correlation);
      kernel(device, 100, "k1", 200, correlation);
      launch(launched, correlation + 1);
      kernel(device, start, all_reduce, 1500, correlation + 1);
    }
    trace::RangeRow step;
    step.process_id = 1, step.thread_id = 1, step.start_ns = 0, step.end_ns = 1600;
    step.name = writer.intern("ProfilerStep#1");
    writer.add(step);
    writer.finish();
  }
  ASSERT_EQ(report(path + " --format json --gaps all"), 0) << error_text();
  const auto out = output_text();
  EXPECT_NE(out.find("\"cause\": \"peer_wait\""), std::string::npos);
  EXPECT_NE(out.find("\"peer_wait\": 300,"), std::string::npos);
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

// A notice goes where the reader sees it once: in a text report on stdout (which opens
// with it), on stderr when the report goes to a file.
TEST_F(ReportCli, NoticesAreShownOnceWhereTheReaderLooks) {
  const auto trace = synthetic("a.sqlite", 0);
  EXPECT_EQ(report(trace + " --step-pattern '^iteration'"), 0);
  EXPECT_NE(output_text().find("matches no annotation"), std::string::npos);
  EXPECT_EQ(error_text().find("matches no annotation"), std::string::npos) << error_text();
  EXPECT_EQ(report(trace + " --step-pattern '^iteration' -o " + folder_.file("out.txt")), 0);
  EXPECT_NE(error_text().find("matches no annotation"), std::string::npos);
}

TEST_F(ReportCli, TwoRanksJsonAndSave) {
  const auto first = synthetic("a.sqlite", 0);
  const auto second = synthetic("b.sqlite", 1);
  EXPECT_EQ(report(first + " " + second + " --format json --save -o " + folder_.file("out.json")), 0) << error_text();
  const auto json = gpuprof::testing::read_file(folder_.file("out.json"));
  EXPECT_NE(json.find("\"format\": \"gpuprof.report/3\""), std::string::npos);
  EXPECT_NE(json.find("\"rank\": 1"), std::string::npos);
  trace::TraceFile file(second);
  const auto steps = file.steps();
  EXPECT_EQ(steps.size(), 2U * 4U);
  EXPECT_EQ(steps.front().rank, 1);
  EXPECT_EQ(file.gaps().size(), 2U * 3U);
}

// JSON keeps the idle intervals and lists the longest --max-intervals of them, counting the rest.
std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t found = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++found;
  return found;
}

TEST_F(ReportCli, JsonListsTheLongestIdleIntervals) {
  const auto trace = synthetic("a.sqlite", 0);
  EXPECT_EQ(report(trace + " --format json --max-intervals 2 -o " + folder_.file("out.json")), 0) << error_text();
  const auto json = gpuprof::testing::read_file(folder_.file("out.json"));
  EXPECT_NE(json.find("\"kept\": true"), std::string::npos);
  EXPECT_NE(json.find("\"limit\": 2,"), std::string::npos);
  EXPECT_NE(json.find("\"listed\": 2,"), std::string::npos);
  // Each listed interval says what the host did meanwhile, as the app's details do; so does each gap.
  const auto rows = json.find("\"idle_intervals\"");
  ASSERT_NE(rows, std::string::npos);
  EXPECT_EQ(occurrences(json.substr(rows), "\"host_activity\""), 2U);
  EXPECT_GT(occurrences(json.substr(0, rows), "\"host_activity\""), 0U);
  EXPECT_EQ(report(trace + " --format json --max-intervals -1"), 2);
}

TEST_F(ReportCli, EveryFormatWrites) {
  const auto trace = synthetic("a.sqlite", 0);
  for (const std::string format : {"text", "md", "csv", "json", "html"}) {
    const auto output = folder_.file("out." + format);
    EXPECT_EQ(report(trace + " --format " + format + " -o " + output), 0) << format << ": " << error_text();
    EXPECT_GT(fs::file_size(output), 100U) << format;
  }
}

TEST_F(ReportCli, DefaultTextOpensWithTheSummaryAndFits120Columns) {
  const auto trace = synthetic("a.sqlite", 0);
  ASSERT_EQ(report(trace), 0) << error_text();
  const auto text = output_text();
  EXPECT_LT(text.find("Summary ("), text.find("Time breakdown per device"));
  EXPECT_NE(text.find("Batch gaps per device"), std::string::npos);
  EXPECT_EQ(text.find("After warm-up"), std::string::npos);
  EXPECT_EQ(text.find("Start (ns)"), std::string::npos);
  EXPECT_EQ(text.find("Memcpy hidden%"), std::string::npos);
  std::size_t widest = 0;
  for (std::size_t start = 0, end; start < text.size(); start = end + 1) {
    end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    widest = std::max(widest, end - start);
  }
  EXPECT_LE(widest, 120U);
}

TEST_F(ReportCli, TopGapsAndWideOptions) {
  const auto trace = synthetic("a.sqlite", 0);
  ASSERT_EQ(report(trace + " --top 2 --sections kernels"), 0) << error_text();
  EXPECT_NE(output_text().find("Kernel summary (the 2 longest per rank;"), std::string::npos);
  ASSERT_EQ(report(trace + " --top 0 --sections kernels"), 0) << error_text();
  EXPECT_EQ(output_text().find("Kernel summary ("), std::string::npos);
  ASSERT_EQ(report(trace + " --gaps all --sections gaps"), 0) << error_text();
  EXPECT_NE(output_text().find("After warm-up"), std::string::npos);
  ASSERT_EQ(report(trace + " --wide --sections devices"), 0) << error_text();
  EXPECT_NE(output_text().find("Memcpy hidden%"), std::string::npos);
  ASSERT_EQ(report(trace + " --sections summary"), 0) << error_text();
  EXPECT_NE(output_text().find("Summary ("), std::string::npos);
  EXPECT_EQ(output_text().find("Time breakdown per device"), std::string::npos);
  EXPECT_EQ(report(trace + " --gaps some -o " + folder_.file("out.txt")), 2);
  EXPECT_NE(error_text().find("--gaps"), std::string::npos);
  EXPECT_FALSE(fs::exists(folder_.file("out.txt")));
}

// The terminal's --top default never shortens JSON: it keeps every kernel row unless --top is given.
TEST_F(ReportCli, JsonKeepsEveryKernelRowByDefault) {
  const auto trace = synthetic("a.sqlite", 0);
  ASSERT_EQ(report(trace + " --format json --sections kernels"), 0) << error_text();
  const auto all = occurrences(output_text(), "\"short_name\"");
  ASSERT_EQ(report(trace + " --format json --sections kernels --top 0"), 0) << error_text();
  EXPECT_EQ(occurrences(output_text(), "\"short_name\""), all);
  ASSERT_EQ(report(trace + " --format json --sections kernels --top 1"), 0) << error_text();
  EXPECT_LT(occurrences(output_text(), "\"short_name\""), all);
}

}  // namespace
}  // namespace gpuprof
