// The number lists every list option shares (`sweep --batch 64,128`, `--gpus 2,4,8`).

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

}  // namespace
}  // namespace gpuprof
