#include <filesystem>

#include "cli_test_support.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

TEST(SynthCommand, WritesATraceThatInfoDescribes) {
  TemporaryFolder folder;
  const auto path = folder.file("s.sqlite");
  const auto result = gpuprof({"synth", "-o", path, "--devices", "4", "--steps", "3"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("4 devices, 3 steps"), std::string::npos) << result.out;
  trace::TraceFile file(path);
  EXPECT_EQ(file.devices().size(), 4U);
  EXPECT_EQ(file.meta_value("source_format"), "synthetic");
  EXPECT_NE(file.meta_value("command_line").value_or("").find("--devices 4"), std::string::npos);
  EXPECT_EQ(gpuprof({"info", path}).exit_code, 0);
}

TEST(SynthCommand, RefusesToOverwriteWithoutForce) {
  TemporaryFolder folder;
  const auto path = folder.file("s.sqlite");
  write_file(path, "keep me");
  expect_bad_input(gpuprof({"synth", "-o", path}), path, "already exists (use --force to overwrite)");
  EXPECT_EQ(read_file(path), "keep me");
  EXPECT_EQ(gpuprof({"synth", "-o", path, "--force", "--steps", "2"}).exit_code, 0);
  EXPECT_NO_THROW(trace::TraceFile{path});
}

TEST(SynthCommand, RefusesNonsenseWithoutLeavingAFile) {
  TemporaryFolder folder;
  const auto path = folder.file("s.sqlite");
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--devices", "0"}, "--devices must be between 1 and 64"},
      {{"--steps", "0"}, "--steps must be between 1 and 1000000"},
      {{"--events", "-10"}, "--events must be between 0 and 1000000000"},
      {{"--kernels-per-step", "-3"}, "--kernels-per-step must be at least 2"},
      {{"--input-memory", "cloud"}, "cloud"},
      {{"--devices", "two"}, "two"},
  };
  for (const auto& [extra, problem] : cases) {
    std::vector<std::string> arguments = {"synth", "-o", path};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    const auto result = gpuprof(arguments);
    EXPECT_EQ(result.exit_code, 2) << problem;
    EXPECT_NE(result.err.find(problem), std::string::npos) << result.err;
    EXPECT_TRUE(std::filesystem::is_empty(folder.path())) << problem;
  }
}

TEST(SynthCommand, MissingOutputFolderIsBadInput) {
  TemporaryFolder folder;
  const auto path = folder.file("absent/s.sqlite");
  expect_bad_input(gpuprof({"synth", "-o", path}), path, "does not exist");
}

}  // namespace
}  // namespace gpuprof::testing
