// A Kineto file nested far deeper than any trace (issue 16): refused with one
// line by every command that reads it, never a stack overflow.
#include <fstream>
#include <string>

#include "cli_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

constexpr int kLevels = 250'000;

std::string write_deep_trace(const TemporaryFolder& folder) {
  const auto path = folder.file("deep.json");
  std::ofstream out(path);
  out << R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2, "args": {"x": )";
  out << std::string(kLevels, '[') << std::string(kLevels, ']') << "}}]}";
  return path;
}

TEST(DeepJson, EveryReaderRefusesItWithOneLine) {
  TemporaryFolder folder;
  const auto path = write_deep_trace(folder);
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"import", path, "-o", folder.file("out.sqlite")}, {"report", path}, {"info", path},
        {"compare", path, path}}) {
    SCOPED_TRACE(command.front());
    const auto result = gpuprof(command);
    expect_bad_input(result, path, "nests JSON deeper than 512 levels");
    EXPECT_TRUE(result.out.empty()) << result.out;
  }
}

TEST(DeepJson, NestingWithinTheLimitIsRead) {
  TemporaryFolder folder;
  const auto path = folder.file("nested.json");
  std::ofstream(path) << R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2, )"
                      << R"("args": {"device": 0, "x": )" << std::string(400, '[') << std::string(400, ']') << "}}]}";
  const auto result = gpuprof({"import", path, "-o", folder.file("out.sqlite")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
}

}  // namespace
}  // namespace gpuprof::testing
