// Kineto JSON is bounded before it is parsed (issue 27): a gzip file may not
// decompress past its limit (a 4 MB bomb needed 4.1 GB), and a JSON string
// longer than kMaxStringBytes is refused instead of held whole (a 4 GiB one
// wrapped RapidJSON's 32-bit length to an empty name).
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdlib>
#include <string>

#include "every_output.hpp"
#include "gpuprof/trace/input_limits.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {
namespace {

const std::string kHead = R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": ")";
const std::string kTail = R"(", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"device": 0}}]})";

void write_gzip(const std::string& path, const std::string& head, std::size_t spaces, const std::string& tail) {
  gzFile file = gzopen(path.c_str(), "wb1");
  ASSERT_NE(file, nullptr);
  gzwrite(file, head.data(), static_cast<unsigned>(head.size()));
  const std::string block(1 << 20, ' ');
  for (std::size_t written = 0; written < spaces; written += block.size()) {
    gzwrite(file, block.data(), static_cast<unsigned>(std::min(block.size(), spaces - written)));
  }
  gzwrite(file, tail.data(), static_cast<unsigned>(tail.size()));
  gzclose(file);
}

void expect_refused(const std::string& path, const std::string& scratch, const std::string& expected) {
  try {
    run_every_output(path, scratch);
    ADD_FAILURE() << "analysed " << path;
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input) << error.what();
    EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
  }
}

TEST(Decompression, AGzipFilePastItsLimitIsRefused) {
  TemporaryFolder folder;
  const auto path = folder.file("bomb.json.gz");
  write_gzip(path, R"({"traceEvents": [)", 8 << 20, "]}");
  ::setenv("GPUPROF_MAX_DECOMPRESSED_BYTES", "4194304", 1);
  expect_refused(path, folder.path().string(), "decompresses to more than 4194304 bytes");
  ::unsetenv("GPUPROF_MAX_DECOMPRESSED_BYTES");
}

TEST(Decompression, AFileWithinItsLimitIsRead) {
  TemporaryFolder folder;
  const auto path = folder.file("fine.json.gz");
  write_gzip(path, kHead + "k", 1 << 20, kTail);
  EXPECT_NO_THROW(run_every_output(path, folder.path().string()));
}

TEST(Decompression, AJsonStringPastTheLimitIsRefused) {
  TemporaryFolder folder;
  const auto path = folder.file("long.json.gz");
  write_gzip(path, kHead, kMaxStringBytes + 1, kTail);
  expect_refused(path, folder.path().string(), "holds a JSON string longer than 16 MiB");
}

}  // namespace
}  // namespace gpuprof::testing
