// A damaged rank in a folder fails the command as the same file named on its
// own does (issue 27: it was dropped silently, exit 0, one rank fewer); with
// --skip-bad the report goes on and names the file it left out, in text and JSON.
#include <filesystem>
#include <string>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

namespace fs = std::filesystem;

class DamagedRank : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directory(folder_.file("runs"));
    for (const char* rank : {"0", "1"}) {
      const auto made = gpuprof({"synth", "-o", folder_.file(std::string("runs/rank") + rank + ".sqlite"), "--steps",
                                 "3", "--devices", "1", "--rank", rank, "--world-size", "2"});
      ASSERT_EQ(made.exit_code, 0) << made.err;
    }
    damaged_ = folder_.file("runs/rank1.sqlite");
    const auto bytes = read_file(damaged_);
    write_file(damaged_, bytes.substr(0, 50));  // a truncated SQLite header
    write_file(folder_.file("runs/README.txt"), "two ranks of a test job\n");
  }
  TemporaryFolder folder_;
  std::string damaged_;
};

TEST_F(DamagedRank, FailsInAFolderAsItDoesNamedAlone) {
  const auto alone = gpuprof({"report", folder_.file("runs/rank0.sqlite"), damaged_});
  expect_bad_input(alone, damaged_, "truncated");
  const auto folder = gpuprof({"report", folder_.file("runs")});
  expect_bad_input(folder, damaged_, "truncated");
  EXPECT_TRUE(folder.out.empty());
}

TEST_F(DamagedRank, SkipBadNamesTheFileLeftOutInTextAndJson) {
  const auto text = gpuprof({"report", folder_.file("runs"), "--skip-bad"});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("left out (--skip-bad)"), std::string::npos) << text.out.substr(0, 2000);
  EXPECT_NE(text.out.find("rank1.sqlite"), std::string::npos);
  const auto json = gpuprof({"report", folder_.file("runs"), "--skip-bad", "--format", "json"});
  EXPECT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("left out (--skip-bad): " + damaged_), std::string::npos) << json.out.substr(0, 2000);
  EXPECT_EQ(read_file(folder_.file("runs/README.txt")), "two ranks of a test job\n");
}

}  // namespace
}  // namespace gpuprof::testing
