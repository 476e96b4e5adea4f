#include <gtest/gtest.h>

#include "gpuprof/analysis/run_facts.hpp"
#include "model_builder.hpp"

namespace gpuprof::analysis {
namespace {

using testing::ModelBuilder;

TEST(RunFacts, MarksStateFactsTheMetaTableWins) {
  ModelBuilder builder;
  builder.range(1, 100, 100, "gpuprof.meta global_batch=128")
      .range(1, 200, 200, "gpuprof.meta gpus=2")
      .range(1, 300, 300, "gpuprof.meta global_batch=256")  // the last mark wins
      .range(1, 400, 900, "step 1");
  auto model = builder.meta("gpus", "4").build();
  EXPECT_EQ(positive_run_fact(model, "global_batch"), 256);
  EXPECT_EQ(positive_run_fact(model, "gpus"), 4);
  EXPECT_EQ(run_fact(model, "batch_size"), std::nullopt);
}

TEST(RunFacts, AnythingButAPositiveIntegerIsNoAnswer) {
  for (const char* value : {"", "0", "-64", "64x", "x", "99999999999999999999999", " 64"}) {
    auto model = ModelBuilder().range(1, 10, 10, std::string("gpuprof.meta batch_size=") + value).build();
    EXPECT_EQ(positive_run_fact(model, "batch_size"), std::nullopt) << value;
  }
  // Names that only look alike are not facts.
  auto model = ModelBuilder().range(1, 10, 10, "gpuprof.meta batch_size_total=64")
                   .range(1, 20, 20, "gpuprof.metabatch_size=64")
                   .range(1, 30, 30, "gpuprof.meta batch_size")
                   .build();
  EXPECT_EQ(positive_run_fact(model, "batch_size"), std::nullopt);
}

}  // namespace
}  // namespace gpuprof::analysis
