// Strings from a file are bounded (issue 27): a step annotation of 200,000
// characters no longer overflows the stack in std::regex, a user's regex never
// runs over a name past kMaxRegexSubjectBytes, and a stored string past
// kMaxStringBytes is left out and counted instead of loaded.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "gpuprof/analysis/analysis_options.hpp"
#include "gpuprof/analysis/bounded_regex.hpp"
#include "gpuprof/analysis/step_pattern.hpp"
#include "gpuprof/analysis/step_windows.hpp"
#include "gpuprof/trace/input_limits.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "hostile_trace.hpp"

namespace gpuprof::testing {
namespace {

using LongStrings = HostileTrace;

TEST_F(LongStrings, AHugeStepAnnotationIsAnalysedWithoutCrashing) {
  edit("UPDATE strings SET value = 'ProfilerStep#' || printf('%.*c', 200000, '1') "
       "WHERE id = (SELECT name_id FROM ranges LIMIT 1)");
  EXPECT_FALSE(outputs().texts.empty());
}

TEST_F(LongStrings, AStringPastTheLimitIsLeftOutAndCounted) {
  edit("UPDATE strings SET value = printf('%.*c', " + std::to_string(kMaxStringBytes + 1) +
       ", 'x') WHERE id = (SELECT name_id FROM kernels LIMIT 1)");
  expect_problem(outputs(), "load.invalid.strings.value = 1");
}

TEST(StepPattern, TheDefaultMatcherAgreesWithTheRegex) {
  const std::regex regex(analysis::kDefaultStepPattern, std::regex::ECMAScript);
  const analysis::StepPattern pattern(analysis::kDefaultStepPattern);
  for (const std::string name :
       {"ProfilerStep#12", "ProfilerStep#", "ProfilerStep#1x", "step 3", "Step_4", "step#5", "step6", "stepX6",
        "step  7", "Batch 8", "batch_9", "batch10", "Batch#", "xstep 1", "step 1 ", "Step", "ProfilerStep#007",
        "profilerStep#1", "steps 1", "", "1", "batch 99999999999999999999"}) {
    std::smatch match;
    const bool matched = std::regex_search(name, match, regex);
    const auto number = pattern.match(name);
    ASSERT_EQ(number.has_value(), matched) << name;
    if (!matched) continue;
    std::int64_t expected = analysis::kNoStepNumber;
    try {
      std::size_t used = 0;
      const auto value = std::stoll(match[1].str(), &used);
      if (static_cast<std::ptrdiff_t>(used) == match[1].length()) expected = value;
    } catch (const std::out_of_range&) {
    }
    EXPECT_EQ(*number, expected) << name;
  }
}

TEST(StepPattern, LongNamesAreMatchedInLinearTimeOrNotAtAll) {
  const std::string digits(1'000'000, '1');
  EXPECT_EQ(analysis::StepPattern(analysis::kDefaultStepPattern).match("ProfilerStep#" + digits),
            analysis::kNoStepNumber);  // a step, its number past int64
  EXPECT_FALSE(analysis::StepPattern(R"(^step(\d+)$)").match("step" + digits).has_value());
  EXPECT_EQ(analysis::StepPattern(R"(^step(\d+)$)").match("step42"), 42);
  EXPECT_FALSE(analysis::bounded_regex_search(std::string(analysis::kMaxRegexSubjectBytes + 1, 'a'),
                                              std::regex("(a|b)+")));
}

// Issue 40: a 100,000-character pattern overflowed the stack while std::regex compiled it.
TEST(StepPattern, APatternTooLongToCompileSafelyIsBadInput) {
  for (const auto& pattern : {std::string(100'000, 'a'), std::string(30'000, '(') + "a" + std::string(30'000, ')')}) {
    try {
      analysis::StepPattern step(pattern);
      ADD_FAILURE() << "a pattern of " << pattern.size() << " characters was compiled";
    } catch (const TraceError& error) {
      EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
      EXPECT_LT(std::string(error.what()).size(), 200u) << "the error quotes the whole pattern";
    }
  }
  EXPECT_EQ(analysis::StepPattern(std::string(1000, 'x') + R"(^step(\d+)$)").match("step1"), std::nullopt);
}

}  // namespace
}  // namespace gpuprof::testing
