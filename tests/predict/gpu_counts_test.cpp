// `--gpus 2,4,8` as the command line and the app's GPU field both read it (predict::parse_gpu_counts, over the
// number lists every list option shares), and the lists a typo makes are bad input naming the option.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpuprof/predict/predict_request.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/units/number_list.hpp"

namespace gpuprof {
namespace {

TEST(NumberList, ReadsCommaSeparatedIntegersAndNothingElse) {
  EXPECT_EQ(units::parse_number_list("64,128"), (std::vector<std::int64_t>{64, 128}));
  EXPECT_EQ(units::parse_number_list("-3"), (std::vector<std::int64_t>{-3}));
  for (const auto* text : {"64,,128", "64x", "", ",", "64,", " 64", "64 ,128", "99999999999999999999"})
    EXPECT_FALSE(units::parse_number_list(text)) << text;
}

TEST(NumberList, NamesTheFirstValueOutOfRange) {
  EXPECT_EQ(units::number_list_problem({1, 8}, "--gpus", 8), "");
  EXPECT_EQ(units::number_list_problem({2, 0, 9}, "--gpus", 8), "--gpus: 0 is not between 1 and 8");
  EXPECT_EQ(units::number_list_problem({2, 9}, "--batch", 8), "--batch: 9 is not between 1 and 8");
  EXPECT_EQ(units::number_list_problem({}, "--gpus", 8), "--gpus: give at least one value");
}

TEST(GpuCounts, AListKeepsItsOrder) {
  EXPECT_EQ(predict::parse_gpu_counts("2,4,8"), (std::vector<std::int32_t>{2, 4, 8}));
  EXPECT_EQ(predict::parse_gpu_counts("8,1"), (std::vector<std::int32_t>{8, 1}));
  EXPECT_EQ(predict::parse_gpu_counts("65536"), (std::vector<std::int32_t>{65536}));
  predict::PredictRequest request;
  request.gpus = "2,4,8";
  request.grad_bytes = 1;
  EXPECT_EQ(predict::options_of(request).gpus, (std::vector<std::int32_t>{2, 4, 8}));
}

TEST(GpuCounts, AnythingElseIsBadInputNamingTheOption) {
  // "\x04" is what `gpus = {4}` makes of a string: it must not pass for a count.
  for (const auto* text : {"", "2,,4", "2, 4", "two", "0", "2,-4", "65537", "4294967298", "\x04"}) {
    try {
      predict::parse_gpu_counts(text);
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const TraceError& error) {
      EXPECT_EQ(error.kind(), TraceError::Kind::bad_input) << text;
      EXPECT_EQ(error.problem().rfind("--gpus: ", 0), 0u) << error.problem();
    }
  }
  predict::PredictRequest request;
  request.gpus = "2,x";
  EXPECT_THROW(predict::options_of(request), TraceError);
}

}  // namespace
}  // namespace gpuprof
