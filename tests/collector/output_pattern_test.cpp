#include "gpuprof/launcher/output_pattern.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <stdexcept>

#include "gpuprof/launcher/output_claim.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::launcher {
namespace {

PatternContext fixed_context() {
  PatternContext context;
  context.pid = 4242;
  context.host = "node7";
  context.environment = [](const std::string& name) -> std::optional<std::string> {
    static const std::map<std::string, std::string> variables = {{"RANK", "3"}, {"JOB", "resnet"}};
    const auto found = variables.find(name);
    if (found == variables.end()) return std::nullopt;
    return found->second;
  };
  return context;
}

TEST(OutputPatternTest, ExpandsEveryPlaceholder) {
  auto context = fixed_context();
  context.number = 5;
  EXPECT_EQ(expand_output_pattern("gpuprof_%h_%p.sqlite", context), "gpuprof_node7_4242.sqlite");
  EXPECT_EQ(expand_output_pattern("run_%q{JOB}_rank%q{RANK}.sqlite", context), "run_resnet_rank3.sqlite");
  EXPECT_EQ(expand_output_pattern("trace_%n.sqlite", context), "trace_5.sqlite");
  EXPECT_EQ(expand_output_pattern("100%%_%q{UNSET}.sqlite", context), "100%_.sqlite");
  EXPECT_EQ(expand_output_pattern("plain.sqlite", context), "plain.sqlite");
}

TEST(OutputPatternTest, RejectsUnknownAndUnfinishedPlaceholders) {
  const auto context = fixed_context();
  EXPECT_THROW(expand_output_pattern("a_%x.sqlite", context), std::invalid_argument);
  EXPECT_THROW(expand_output_pattern("a_%", context), std::invalid_argument);
  EXPECT_THROW(expand_output_pattern("a_%q{RANK.sqlite", context), std::invalid_argument);
  EXPECT_THROW(expand_output_pattern("a_%qRANK", context), std::invalid_argument);
}

TEST(OutputPatternTest, TellsPerProcessPatternsApart) {
  EXPECT_TRUE(is_per_process("a_%p.sqlite"));
  EXPECT_TRUE(is_per_process("a_%n.sqlite"));
  EXPECT_FALSE(is_per_process("a_%h_%q{RANK}.sqlite"));
  EXPECT_FALSE(is_per_process("a_%%p.sqlite"));
  EXPECT_TRUE(has_number_placeholder("a_%n"));
  EXPECT_FALSE(has_number_placeholder("a_%p"));
}

TEST(OutputClaimTest, NumbersFindTheFirstFreeName) {
  gpuprof::testing::TemporaryFolder folder;
  gpuprof::testing::write_file(folder.file("t_1.sqlite"), "taken");
  const auto pattern = folder.file("t_%n.sqlite");
  const auto first = claim_output_file(pattern, fixed_context(), false);
  ASSERT_TRUE(first.ok()) << first.error;
  EXPECT_EQ(first.path, folder.file("t_2.sqlite"));
  const auto second = claim_output_file(pattern, fixed_context(), true);
  EXPECT_EQ(second.path, folder.file("t_3.sqlite"));
  EXPECT_EQ(gpuprof::testing::read_file(folder.file("t_1.sqlite")), "taken");
}

TEST(OutputClaimTest, NeverOverwritesWithoutForce) {
  gpuprof::testing::TemporaryFolder folder;
  const auto path = folder.file("fixed.sqlite");
  gpuprof::testing::write_file(path, "precious");
  const auto refused = claim_output_file(path, fixed_context(), false);
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.error.find("already exists"), std::string::npos);
  EXPECT_EQ(gpuprof::testing::read_file(path), "precious");
  const auto forced = claim_output_file(path, fixed_context(), true);
  ASSERT_TRUE(forced.ok()) << forced.error;
  EXPECT_EQ(forced.path, path);
}

TEST(OutputClaimTest, MissingFolderIsAnError) {
  gpuprof::testing::TemporaryFolder folder;
  const auto claim = claim_output_file(folder.file("missing/t.sqlite"), fixed_context(), false);
  EXPECT_FALSE(claim.ok());
  EXPECT_NE(check_output_folder(folder.file("missing/t.sqlite")), "");
  EXPECT_EQ(check_output_folder(folder.file("t.sqlite")), "");
}

}  // namespace
}  // namespace gpuprof::launcher
