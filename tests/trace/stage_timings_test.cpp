// --timings: each stage once, nested stages under theirs, other threads apart, and a table that names them.
#include <gtest/gtest.h>

#include <thread>

#include "gpuprof/trace/stage_timings.hpp"

namespace gpuprof::trace {
namespace {

const StageTiming* find(const std::vector<StageTiming>& stages, const std::string& name) {
  for (const auto& stage : stages) {
    if (stage.name == name) return &stage;
  }
  return nullptr;
}

TEST(StageTimings, NestedStagesAndOtherThreadsAreRecordedAndPrinted) {
  enable_stage_timings();
  ASSERT_TRUE(stage_timings_enabled());
  const int value = timed("outer stage", [] {
    const StageTimer inner("inner stage");
    std::thread([] { const StageTimer other("other thread's stage"); }).join();
    return 7;
  });
  EXPECT_EQ(value, 7);
  const auto stages = recorded_stage_timings();
  const auto* outer = find(stages, "outer stage");
  const auto* inner = find(stages, "inner stage");
  const auto* other = find(stages, "other thread's stage");
  ASSERT_NE(outer, nullptr);
  ASSERT_NE(inner, nullptr);
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(inner->depth, outer->depth + 1);
  EXPECT_EQ(inner->thread, outer->thread);
  EXPECT_NE(other->thread, outer->thread);
  EXPECT_GE(outer->wall_s, inner->wall_s);
  EXPECT_LT(outer - stages.data(), inner - stages.data()) << "a stage is listed before the stages inside it";
  const auto table = format_stage_timings(stages, process_usage());
  EXPECT_NE(table.find("  outer stage"), std::string::npos) << table;
  EXPECT_NE(table.find("    inner stage"), std::string::npos) << table;
  EXPECT_NE(table.find("other thread's stage [thread "), std::string::npos) << table;
  EXPECT_NE(table.find("process: "), std::string::npos) << table;
}

}  // namespace
}  // namespace gpuprof::trace
