// `gpuprof export` refusals: exit code 2, one line naming the file, and no
// output or staging file left behind.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "export_test_support.hpp"
#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

namespace fs = std::filesystem;
using testing::ProcessResult;
using testing::TemporaryFolder;

ProcessResult run_export(const std::string& input, const std::string& output, bool force = false) {
  std::vector<std::string> arguments{GPUPROF_BINARY, "export", input, "--chrome-trace", output};
  if (force) arguments.emplace_back("--force");
  return testing::run_process(arguments);
}

std::size_t files_in(const fs::path& folder) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

void expect_one_line_naming(const ProcessResult& result, const std::string& path) {
  EXPECT_EQ(result.exit_code, 2) << result.err;
  EXPECT_NE(result.err.find(path), std::string::npos) << result.err;
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
}

TEST(ExportCli, WritesTheFileAndSaysWhatItWrote) {
  TemporaryFolder folder;
  testing::write_handcrafted_trace(folder.file("in.sqlite"));
  const auto result = run_export(folder.file("in.sqlite"), folder.file("out.json.gz"));
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find(" events, "), std::string::npos) << result.out;
  EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 1);
  EXPECT_TRUE(fs::exists(folder.file("out.json.gz")));
  EXPECT_EQ(files_in(folder.path()), 2u);
}

TEST(ExportCli, RefusesAMissingInput) {
  TemporaryFolder folder;
  const auto result = run_export(folder.file("absent.sqlite"), folder.file("out.json"));
  expect_one_line_naming(result, folder.file("absent.sqlite"));
  EXPECT_EQ(files_in(folder.path()), 0u);
}

TEST(ExportCli, RefusesAForeignInput) {
  TemporaryFolder folder;
  testing::write_file(folder.file("notes.txt"), "not a trace\n");
  const auto result = run_export(folder.file("notes.txt"), folder.file("out.json"));
  expect_one_line_naming(result, folder.file("notes.txt"));
  EXPECT_EQ(files_in(folder.path()), 1u);
}

TEST(ExportCli, LeavesAnExistingOutputAloneWithoutForce) {
  TemporaryFolder folder;
  testing::write_handcrafted_trace(folder.file("in.sqlite"));
  testing::write_file(folder.file("out.json"), "keep me");
  const auto refused = run_export(folder.file("in.sqlite"), folder.file("out.json"));
  expect_one_line_naming(refused, folder.file("out.json"));
  EXPECT_EQ(testing::read_file(folder.file("out.json")), "keep me");
  EXPECT_EQ(files_in(folder.path()), 2u);

  const auto forced = run_export(folder.file("in.sqlite"), folder.file("out.json"), true);
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_NE(testing::read_file(folder.file("out.json")), "keep me");
  EXPECT_EQ(files_in(folder.path()), 2u);
}

TEST(ExportCli, RefusesAFolderItCannotWriteTo) {
  TemporaryFolder folder;
  testing::write_handcrafted_trace(folder.file("in.sqlite"));
  // A regular file standing where a folder should be refuses new files even to root.
  testing::write_file(folder.file("plain"), "");
  const std::string output = folder.file("plain") + "/out.json";
  const auto result = run_export(folder.file("in.sqlite"), output);
  expect_one_line_naming(result, output);
  const auto missing = run_export(folder.file("in.sqlite"), folder.file("absent/out.json"));
  expect_one_line_naming(missing, folder.file("absent/out.json"));
  EXPECT_EQ(files_in(folder.path()), 2u);
}

}  // namespace
}  // namespace gpuprof
