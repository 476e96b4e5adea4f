#include "cli_test_support.hpp"

namespace gpuprof::testing {
namespace {

TEST(GpuprofCli, VersionPrintsTheVersion) {
  const auto result = gpuprof({"--version"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.out, std::string("gpuprof ") + GPUPROF_VERSION_FOR_TESTS + "\n");
}

TEST(GpuprofCli, HelpListsTheSubcommands) {
  const auto result = gpuprof({"--help"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.out.find("info"), std::string::npos);
  EXPECT_NE(result.out.find("synth"), std::string::npos);
}

TEST(GpuprofCli, EverySubcommandHasHelp) {
  for (const char* command : {"info", "synth"}) {
    const auto result = gpuprof({command, "--help"});
    EXPECT_EQ(result.exit_code, 0) << command;
    EXPECT_NE(result.out.find("Usage"), std::string::npos) << command;
  }
}

TEST(GpuprofCli, NoSubcommandIsAUsageError) {
  const auto result = gpuprof({});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("gpuprof --help"), std::string::npos);
}

TEST(GpuprofCli, UnknownSubcommandIsAUsageError) {
  const auto result = gpuprof({"frobnicate"});
  EXPECT_EQ(result.exit_code, 2);
}

}  // namespace
}  // namespace gpuprof::testing
