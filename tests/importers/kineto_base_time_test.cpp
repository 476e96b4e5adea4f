// baseTimeNanoseconds comes after traceEvents. For plain files the importer
// reads it from the file's last bytes first and adds it while converting; for
// gzip files (and when that guess is wrong) it shifts the written rows after.
// Both ways must give the same trace: these tests import each case plain and
// gzipped and compare.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "import_test_support.hpp"
#include "kineto_base_time.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

using testing::TemporaryFolder;

constexpr std::int64_t kBase = 1'700'000'000'000'000'000;

std::string events() {
  return R"j({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1000.5, "dur": 2,
      "args": {"device": 0, "stream": 7, "correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 995, "dur": 1,
      "args": {"correlation": 1}},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 990, "dur": 20})j";
}

// An event near the end whose args repeat the key: the tail guess finds this one.
std::string decoy() {
  return R"j(, {"ph": "X", "cat": "user_annotation", "name": "d", "pid": 1, "tid": 1, "ts": 5, "dur": 1,
      "args": {"baseTimeNanoseconds": 5}})j";
}

struct Case {
  const char* name;
  std::string json;
};

std::vector<Case> cases() {
  const std::string base = std::to_string(kBase);
  return {
      {"base after the events", R"({"traceEvents": [)" + events() + R"(], "baseTimeNanoseconds": )" + base + "}"},
      {"base before the events, decoy last",
       R"({"baseTimeNanoseconds": )" + base + R"(, "traceEvents": [)" + events() + decoy() + "]}"},
      {"no base, decoy last", R"({"traceEvents": [)" + events() + decoy() + "]}"},
      {"no base", R"({"traceEvents": [)" + events() + "]}"},
  };
}

struct Imported {
  trace::TraceModel model;
  std::vector<std::int64_t> starts;
};

Imported import_as(const TemporaryFolder& folder, const Case& c, bool gzip) {
  const std::string input = folder.file(gzip ? "trace.json.gz" : "trace.json");
  if (gzip) {
    testing::write_gzip_file(input, c.json);
  } else {
    testing::write_file(input, c.json);
  }
  const std::string output = folder.file(gzip ? "gzip.sqlite" : "plain.sqlite");
  testing::import_file(input, output);
  Imported imported{trace::load_trace_model(output), {}};
  for (const auto* column : {&imported.model.kernels.start_ns, &imported.model.kernels.end_ns,
                             &imported.model.api_calls.start_ns, &imported.model.ranges.start_ns}) {
    imported.starts.insert(imported.starts.end(), column->begin(), column->end());
  }
  return imported;
}

TEST(KinetoBaseTime, GuessReadsThePlainFilesLastBytesOnly) {
  TemporaryFolder folder;
  const auto all = cases();
  testing::write_file(folder.file("end.json"), all[0].json);
  EXPECT_EQ(importers::guess_kineto_base_time(folder.file("end.json")), kBase);
  testing::write_file(folder.file("decoy.json"), all[1].json);
  EXPECT_EQ(importers::guess_kineto_base_time(folder.file("decoy.json")), 5);  // only a guess
  testing::write_file(folder.file("none.json"), all[3].json);
  EXPECT_EQ(importers::guess_kineto_base_time(folder.file("none.json")), std::nullopt);
  testing::write_gzip_file(folder.file("end.json.gz"), all[0].json);
  EXPECT_EQ(importers::guess_kineto_base_time(folder.file("end.json.gz")), std::nullopt);
}

TEST(KinetoBaseTime, PlainAndGzipImportsAgreeWhateverTheGuess) {
  for (const auto& c : cases()) {
    TemporaryFolder folder;
    const auto plain = import_as(folder, c, false);
    const auto gzip = import_as(folder, c, true);
    ASSERT_FALSE(plain.starts.empty()) << c.name;
    EXPECT_EQ(plain.starts, gzip.starts) << c.name;
    EXPECT_EQ(plain.model.meta.at("start_ns"), gzip.model.meta.at("start_ns")) << c.name;
    EXPECT_EQ(plain.model.meta.at("end_ns"), gzip.model.meta.at("end_ns")) << c.name;
  }
}

TEST(KinetoBaseTime, BaseIsAddedToEveryTime) {
  TemporaryFolder folder;
  const auto plain = import_as(folder, cases()[0], false);
  ASSERT_EQ(plain.model.kernels.size(), 1u);
  EXPECT_EQ(plain.model.kernels.start_ns[0], kBase + 1'000'500);
  EXPECT_EQ(plain.model.api_calls.start_ns[0], kBase + 995'000);
}

// A time the base pushes past int64 is an invalid event, counted, not a wrapped or floating value.
TEST(KinetoBaseTime, TimeOutOfRangeAfterTheBaseIsCounted) {
  TemporaryFolder folder;
  const Case c{"overflow", R"({"traceEvents": [)" + events() +
                               R"(, {"ph": "X", "cat": "kernel", "name": "late", "pid": 0, "tid": 7,
      "ts": 9000000000000000, "dur": 1, "args": {"device": 0}}], "baseTimeNanoseconds": )" +
                               std::to_string(kBase) + "}"};
  const auto plain = import_as(folder, c, false);
  EXPECT_EQ(plain.model.kernels.size(), 1u);
  bool counted = false;
  for (const auto& stat : plain.model.stats) counted |= stat.name == "import.malformed.kernel" && stat.value == 1;
  EXPECT_TRUE(counted);
}

// Without a base too: a start and duration each in range whose sum is not.
TEST(KinetoBaseTime, EndOutOfRangeIsCountedWithoutABase) {
  TemporaryFolder folder;
  const Case c{"overflow", R"({"traceEvents": [)" + events() +
                               R"(, {"ph": "X", "cat": "kernel", "name": "late", "pid": 0, "tid": 7,
      "ts": 9000000000000000, "dur": 9000000000000000, "args": {"device": 0}}]})"};
  for (const bool gzip : {false, true}) {
    const auto imported = import_as(folder, c, gzip);
    EXPECT_EQ(imported.model.kernels.size(), 1u);
    bool counted = false;
    for (const auto& stat : imported.model.stats) counted |= stat.name == "import.malformed.kernel" && stat.value == 1;
    EXPECT_TRUE(counted) << (gzip ? "gzip" : "plain");
  }
}

// The difference between a wrong guess and the real base may not fit: bad input, one line, no crash.
TEST(KinetoBaseTime, GuessTooFarFromTheBaseIsBadInput) {
  TemporaryFolder folder;
  const std::string json = R"({"baseTimeNanoseconds": 9223372036854775807, "traceEvents": [)" + events() +
                           R"(, {"ph": "M", "name": "n", "args": {"baseTimeNanoseconds": -9223372036854775808}}]})";
  testing::write_file(folder.file("trace.json"), json);
  try {
    testing::import_file(folder.file("trace.json"), folder.file("out.sqlite"));
    FAIL() << "imported";
  } catch (const TraceError& error) {
    EXPECT_EQ(error.path(), folder.file("trace.json"));
    EXPECT_NE(error.problem().find("baseTimeNanoseconds"), std::string::npos) << error.problem();
  }
}

}  // namespace
}  // namespace gpuprof
