// Outputs go only into regular files or new names (issue 27): a device node,
// FIFO, socket or symbolic link given as -o is refused with one line and exit
// 2, --force or not, and is left as it was. Every node lives in a private
// folder: the machine's real /dev is never touched.
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

namespace fs = std::filesystem;

class OutputKinds : public ::testing::Test {
 protected:
  void SetUp() override {
    trace_ = folder_.file("T.sqlite");
    const auto made = gpuprof({"synth", "-o", trace_, "--steps", "3", "--devices", "1"});
    ASSERT_EQ(made.exit_code, 0) << made.err;
    kineto_ = folder_.file("k.json");
    write_file(kineto_, R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1,)"
                        R"( "dur": 2, "args": {"device": 0}}]})");
  }

  // Each special kind of file we can make here; a device only as root.
  std::vector<std::string> special_files() {
    std::vector<std::string> files;
    const auto fifo = folder_.file("fifo");
    if (::mkfifo(fifo.c_str(), 0600) == 0) files.push_back(fifo);
    const auto device = folder_.file("null");
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) files.push_back(device);
    const auto link = folder_.file("link");
    fs::create_symlink(folder_.file("elsewhere.txt"), link);
    files.push_back(link);
    const auto socket_path = folder_.file("sock");
    const int socket = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socket_path.c_str(), sizeof(address.sun_path) - 1);
    if (socket_path.size() < sizeof(address.sun_path) &&
        ::bind(socket, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0) {
      files.push_back(socket_path);
    }
    ::close(socket);
    return files;
  }

  void expect_refused_and_kept(std::vector<std::string> arguments, const std::string& output) {
    struct stat before {};
    ASSERT_EQ(::lstat(output.c_str(), &before), 0);
    for (const bool force : {false, true}) {
      if (force) arguments.push_back("--force");
      const auto result = gpuprof(arguments);
      expect_bad_input(result, output, "gpuprof writes only to regular files or new names");
      struct stat after {};
      ASSERT_EQ(::lstat(output.c_str(), &after), 0) << output << " was removed";
      EXPECT_EQ(after.st_mode, before.st_mode) << output << " was replaced by gpuprof " << arguments.front();
      EXPECT_EQ(after.st_ino, before.st_ino) << output;
    }
    EXPECT_FALSE(fs::exists(folder_.file("elsewhere.txt"))) << "a link was followed";
  }

  TemporaryFolder folder_;
  std::string trace_;
  std::string kineto_;
};

TEST_F(OutputKinds, EveryCommandRefusesSpecialFiles) {
  const auto files = special_files();
  ASSERT_GE(files.size(), 3U);
  for (const auto& output : files) {
    SCOPED_TRACE(output);
    expect_refused_and_kept({"report", trace_, "-o", output}, output);
    expect_refused_and_kept({"report", trace_, "--format", "json", "-o", output}, output);
    expect_refused_and_kept({"compare", trace_, trace_, "-o", output}, output);
    expect_refused_and_kept({"export", trace_, "--chrome-trace", output}, output);
    expect_refused_and_kept({"synth", "-o", output, "--steps", "2", "--devices", "1"}, output);
    expect_refused_and_kept({"import", kineto_, "-o", output}, output);
  }
}

TEST_F(OutputKinds, StandardOutputStaysDash) {
  const auto result = gpuprof({"report", trace_, "-o", "-"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_FALSE(result.out.empty());
}

}  // namespace
}  // namespace gpuprof::testing
