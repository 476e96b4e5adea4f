// Option values are checked before any work and sums never wrap (issue 27):
// synth used to run out of memory on --steps 2^40, `--top -1` and `-o ""`
// were accepted, and two copies of 5e18 ns summed to a negative time.
#include <sqlite3.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

void expect_usage_error(const std::vector<std::string>& arguments) {
  const auto result = gpuprof(arguments);
  EXPECT_EQ(result.exit_code, 2) << arguments[1] << " " << arguments.back() << ": " << result.err;
  EXPECT_TRUE(result.out.empty()) << result.out;
  EXPECT_NE(result.err.find("gpuprof: "), std::string::npos) << result.err;
}

class OptionRanges : public WithSyntheticTrace {};

TEST_F(OptionRanges, SynthRefusesSizesThatCannotBeWritten) {
  const auto output = folder_.file("S.sqlite");
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--input-bytes", "9223372036854775807"}, {"--steps", "1099511627776"},
        {"--events", "1000000000000"}, {"--events", "1e12"}, {"--kernel-us", "9223372036854775807"},
        {"--steps", "1000000", "--kernels-per-step", "1000000"}}) {
    std::vector<std::string> arguments = {"synth", "-o", output};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    expect_usage_error(arguments);
    EXPECT_FALSE(std::filesystem::exists(output));
  }
}

TEST_F(OptionRanges, ReportAndCompareRefuseNegativeCountsBadPatternsAndEmptyOutputs) {
  expect_usage_error({"report", trace_, "--top", "-1"});
  expect_usage_error({"report", trace_, "--warmup-steps", "-1"});
  expect_usage_error({"report", trace_, "--comm-pattern", "nccl[z-a]"});
  expect_usage_error({"report", trace_, "--step-pattern", "step[9-0]"});
  expect_usage_error({"report", trace_, "-o", ""});
  expect_usage_error({"compare", trace_, trace_, "--top", "-1"});
  expect_usage_error({"compare", trace_, trace_, "--warmup-steps", "-1"});
  expect_usage_error({"compare", trace_, trace_, "-o", ""});
  expect_usage_error({"export", trace_, "--chrome-trace", ""});
  expect_usage_error({"synth", "-o", ""});
}

TEST_F(OptionRanges, HugeTimesAndBytesNeverSumToNegatives) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(trace_.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "DELETE FROM event_chunks; UPDATE memcpys SET start_ns = 1, end_ns = 5000000000000000000, "
                         "bytes = 5000000000000000000 WHERE rowid IN (SELECT rowid FROM memcpys LIMIT 4)",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  const auto json = gpuprof({"report", trace_, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_FALSE(std::regex_search(json.out, std::regex(R"re("[a-z_]*(_ns|bytes)":\s*-)re"))) << json.out.substr(0, 3000);
  const auto text = gpuprof({"report", trace_});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_FALSE(std::regex_search(text.out, std::regex(R"re(-[0-9][0-9.]* (s|ms|us|ns|B|KiB|MiB|GiB|TiB)\b)re"))) << text.out.substr(0, 3000);
}

// Issue 40: every copy from 0 to INT64_MAX. The sum of the kinds wrapped to
// "Exposed transfers: -4 ns", the median of two such copies read back as
// INT64_MIN, and the category total wrapped into Time% 39046020276927.
TEST_F(OptionRanges, CopiesSpanningTheWholeClockNeverWrap) {
  run_sql(trace_, "DELETE FROM event_chunks; UPDATE memcpys SET start_ns = 0, end_ns = 9223372036854775807");
  const auto text = gpuprof({"report", trace_});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_FALSE(std::regex_search(text.out, std::regex(R"re(-[0-9][0-9.]* (s|ms|us|ns)\b)re"))) << text.out.substr(0, 4000);
  const auto json = gpuprof({"report", trace_, "--format", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const std::regex percent(R"re("percent":\s*([-0-9.e+]+))re");
  int percents = 0;
  for (std::sregex_iterator match(json.out.begin(), json.out.end(), percent), end; match != end; ++match, ++percents) {
    const double value = std::stod((*match)[1].str());
    EXPECT_TRUE(value >= 0 && value <= 100.0001) << (*match)[0].str();
  }
  EXPECT_GT(percents, 0);
}

}  // namespace
}  // namespace gpuprof::testing
