// refuse_writing_over_inputs: the same file is found whatever the path looks like.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "gpuprof/trace/output_guard.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

namespace fs = std::filesystem;

void expect_refused(const std::string& output, const std::vector<std::string>& inputs) {
  try {
    refuse_writing_over_inputs({output}, inputs);
    ADD_FAILURE() << output << " was allowed";
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
    EXPECT_EQ(error.path(), output);
  }
}

TEST(OutputGuard, FindsTheInputBehindAnySpelling) {
  testing::TemporaryFolder folder;
  const auto input = folder.file("T.sqlite");
  testing::write_file(input, "trace");
  fs::create_symlink(input, folder.file("soft"));
  fs::create_hard_link(input, folder.file("hard"));
  expect_refused(input, {input});
  expect_refused((folder.path() / "." / "." / "T.sqlite").string(), {input});
  expect_refused(folder.file("soft"), {input});
  expect_refused(folder.file("hard"), {input});
  expect_refused(input, {folder.file("soft")});
}

TEST(OutputGuard, AFolderStandsForEveryFileBeneathIt) {
  testing::TemporaryFolder folder;
  fs::create_directories(folder.file("runs/rank0"));
  testing::write_file(folder.file("runs/rank0/t.sqlite"), "trace");
  expect_refused(folder.file("runs/rank0/t.sqlite"), {folder.file("runs")});
}

TEST(OutputGuard, AllowsNewFilesAndOtherFiles) {
  testing::TemporaryFolder folder;
  testing::write_file(folder.file("in.sqlite"), "trace");
  testing::write_file(folder.file("old-report.txt"), "report");
  EXPECT_NO_THROW(refuse_writing_over_inputs({folder.file("new.txt"), folder.file("old-report.txt")},
                                             {folder.file("in.sqlite"), folder.file("missing.sqlite")}));
}

}  // namespace
}  // namespace gpuprof
