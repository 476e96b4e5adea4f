#include <gtest/gtest.h>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/analysis/time_base_notice.hpp"
#include "model_builder.hpp"

namespace gpuprof::analysis {
namespace {

using testing::ModelBuilder;

constexpr std::int64_t kSecond = 1'000'000'000;

bool has_notice(const RankAnalysis& rank, const std::string& part) {
  for (const auto& notice : rank.notices) {
    if (notice.find(part) != std::string::npos) return true;
  }
  return false;
}

// Three launches whose kernels start `gpu_offset` after the call (plus 1-3 us).
ModelBuilder launches(std::int64_t gpu_offset) {
  ModelBuilder builder;
  for (std::int64_t i = 0; i < 3; ++i) {
    const std::int64_t call = 10 * kSecond + i * 1'000'000;
    builder.api_call(1, call, call + 500, i + 1).kernel(0, 7, call + gpu_offset + 1000 * (i + 1),
                                                         call + gpu_offset + 1000 * (i + 1) + 300, "gemm", i + 1);
  }
  return builder;
}

// A trace read as recorded (the collector's): a GPU clock 5 s behind the host's is reported, not hidden.
TEST(TimeBaseNotice, UnalignedTraceIsReported) {
  const auto rank = analyze_rank(launches(-5 * kSecond).build(), AnalysisOptions{});
  EXPECT_TRUE(has_notice(rank, "different clocks")) << ::testing::PrintToString(rank.notices);
  EXPECT_TRUE(has_notice(rank, "3 of 3 launch delays negative"));
}

TEST(TimeBaseNotice, AgreeingClocksSayNothing) {
  const auto rank = analyze_rank(launches(0).build(), AnalysisOptions{});
  EXPECT_FALSE(has_notice(rank, "clock")) << ::testing::PrintToString(rank.notices);
}

TEST(TimeBaseNotice, ShiftMadeAtImportIsReported) {
  auto builder = launches(0);
  builder.meta("gpu_clock_shift_ns", "-259200000000100").meta("gpu_clock_shift_reason", "every launch takes over 1 s");
  const auto rank = analyze_rank(builder.build(), AnalysisOptions{});
  EXPECT_TRUE(has_notice(rank, "moved back by 259200.000 s (-259200000000100 ns) at import")) <<
      ::testing::PrintToString(rank.notices);
  EXPECT_TRUE(has_notice(rank, "every launch takes over 1 s"));
}

TEST(TimeBaseNotice, UnreadableShiftIsSaidSo) {
  EXPECT_NE(clock_shift_notice({{"gpu_clock_shift_ns", "-9223372036854775808"}})->find("unreadable"),
            std::string::npos);
  EXPECT_NE(clock_shift_notice({{"gpu_clock_shift_ns", "3 days"}})->find("unreadable"), std::string::npos);
  EXPECT_FALSE(clock_shift_notice({}).has_value());
}

}  // namespace
}  // namespace gpuprof::analysis
