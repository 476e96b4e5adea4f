// Inputs must be regular files, or folders where a job is accepted (issue
// 27): a FIFO given as a trace used to block every command forever in open().
// Each command is run under timeout(1) so that a regression fails instead of
// hanging the suite.
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

ProcessResult gpuprof_within(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), {"/usr/bin/timeout", "-s", "KILL", "30", GPUPROF_BINARY});
  return run_process(arguments);
}

class InputKinds : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = folder_.file("T.sqlite");
    const auto made = gpuprof({"synth", "-o", trace_, "--steps", "3", "--devices", "1"});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    fifo_ = folder_.file("fifo.sqlite");
    ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
  }

  TemporaryFolder folder_;
  std::string trace_;
  std::string fifo_;
};

TEST_F(InputKinds, AFifoIsRefusedByEveryCommandWithoutBlocking) {
  const std::vector<std::vector<std::string>> commands = {
      {"report", fifo_},
      {"report", trace_, fifo_},
      {"info", fifo_},
      {"compare", trace_, fifo_},
      {"export", fifo_, "--chrome-trace", folder_.file("out.json")},
      {"import", fifo_, "-o", folder_.file("out.sqlite")},
      {"import", fifo_, "--format", "kineto", "-o", folder_.file("out.sqlite")},
  };
  for (const auto& command : commands) {
    SCOPED_TRACE(command.front());
    expect_bad_input(gpuprof_within(command), fifo_, "is a FIFO, not a trace file");
  }
}

TEST_F(InputKinds, AFifoInAJobFolderIsNamedAsAFifo) {
  const auto job = folder_.file("job");
  ASSERT_EQ(::mkdir(job.c_str(), 0700), 0);
  const auto rank = job + "/rank1.sqlite";
  ASSERT_EQ(::mkfifo(rank.c_str(), 0600), 0);
  expect_bad_input(gpuprof_within({"report", job}), rank, "is a FIFO, not a trace file");
}

TEST_F(InputKinds, ADeviceIsRefused) {
  const auto device = folder_.file("zero");
  if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 5)) != 0) GTEST_SKIP() << "mknod needs root";
  expect_bad_input(gpuprof_within({"report", device}), device, "is a device, not a trace file");
  expect_bad_input(gpuprof_within({"info", device}), device, "is a device, not a trace file");
}

}  // namespace
}  // namespace gpuprof::testing
