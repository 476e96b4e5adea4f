// The Kineto reader holds one fixed buffer of the (uncompressed) file. These
// tests shrink that buffer to a few bytes so that every string, number, key
// and literal of a trace is cut by a refill somewhere, in plain and gzip files.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpuprof/trace/trace_error.hpp"
#include "gzip_stream.hpp"
#include "import_test_support.hpp"
#include "kineto_reader.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

using importers::GzipFile;
using importers::GzipStream;
using testing::TemporaryFolder;

// Long numbers and strings (with escapes) so that refills land inside them.
const char* kTrace = R"json({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "void gemm<float, 128>(Params) \"quoted\" \u00e9", "pid": 0, "tid": 7,
   "ts": 1694128201435418.655, "dur": 12.5, "args": {"device": 0, "stream": 7, "correlation": 123456789012,
   "grid": [64, 1, 1], "block": [128, 1, 1], "flag": true, "none": null}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": "59811", "tid": -59976,
   "ts": 1.5e3, "dur": 3.25, "args": {"correlation": 123456789012}}
], "baseTimeNanoseconds": 1700000000000000000})json";

// Everything the reader hands over, flattened to text.
class Recorder final : public importers::KinetoEventConsumer {
 public:
  void consume(const importers::KinetoEvent& event) override {
    std::string line = event.ph + "|" + event.cat + "|" + event.name + "|" + event.pid.text + "|" + event.tid.text +
                       "|" + event.ts.text + "|" + event.dur.text;
    for (std::size_t i = 0; i < event.arg_count; ++i) {
      line += "|" + event.args[i].key + "=" + event.args[i].value.text;
      for (const auto& item : event.args[i].items) line += "," + item;
    }
    lines.push_back(line);
  }
  void malformed_element() override { lines.emplace_back("malformed"); }
  std::vector<std::string> lines;
};

std::string read_bytes(const std::string& path, std::size_t buffer_bytes, std::size_t* told) {
  GzipFile file(path, buffer_bytes);
  GzipStream stream(file);
  std::string bytes;
  while (stream.Peek() != '\0') bytes += stream.Take();
  *told = stream.Tell();
  return bytes;
}

TEST(KinetoBuffer, StreamGivesEveryByteOnceAcrossRefillsPlainAndGzip) {
  TemporaryFolder folder;
  const std::string text = kTrace;
  testing::write_file(folder.file("plain.json"), text);
  testing::write_gzip_file(folder.file("packed.json.gz"), text);
  for (const char* name : {"plain.json", "packed.json.gz"}) {
    for (const std::size_t buffer : {1, 2, 3, 7, 64, 4096}) {
      std::size_t told = 0;
      EXPECT_EQ(read_bytes(folder.file(name), buffer, &told), text) << name << " buffer " << buffer;
      EXPECT_EQ(told, text.size()) << name << " buffer " << buffer;
    }
  }
}

TEST(KinetoBuffer, PastTheEndReadsZeroWithoutCountingIt) {
  TemporaryFolder folder;
  testing::write_file(folder.file("ab.json"), "ab");
  GzipFile file(folder.file("ab.json"), 1);
  GzipStream stream(file);
  EXPECT_EQ(stream.Tell(), 0u);  // nothing read yet
  EXPECT_EQ(stream.Take(), 'a');
  EXPECT_EQ(stream.Take(), 'b');
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(stream.Peek(), '\0');
    EXPECT_EQ(stream.Take(), '\0');
    EXPECT_EQ(stream.Tell(), 2u);
  }
}

TEST(KinetoBuffer, EmptyFileReadsZeroAtOffsetZero) {
  TemporaryFolder folder;
  testing::write_file(folder.file("empty.json"), "");
  GzipFile file(folder.file("empty.json"));
  GzipStream stream(file);
  EXPECT_EQ(stream.Peek(), '\0');
  EXPECT_EQ(stream.Take(), '\0');
  EXPECT_EQ(stream.Tell(), 0u);
}

TEST(KinetoBuffer, EveryBufferSizeReadsTheSameEvents) {
  TemporaryFolder folder;
  testing::write_file(folder.file("trace.json"), kTrace);
  testing::write_gzip_file(folder.file("trace.json.gz"), kTrace);
  Recorder expected;
  const auto header = importers::read_kineto(folder.file("trace.json"), expected);
  ASSERT_EQ(expected.lines.size(), 2u);
  // The numbers arrive as written, split by no refill, with all their digits.
  EXPECT_NE(expected.lines[0].find("|1694128201435418.655|12.5|"), std::string::npos) << expected.lines[0];
  EXPECT_NE(expected.lines[0].find("correlation=123456789012"), std::string::npos);
  EXPECT_NE(expected.lines[0].find("\"quoted\" \xc3\xa9"), std::string::npos);
  for (const char* name : {"trace.json", "trace.json.gz"}) {
    for (std::size_t buffer = 1; buffer <= 80; ++buffer) {
      Recorder got;
      std::size_t bytes = 0;
      const auto got_header = importers::read_kineto(folder.file(name), got, &bytes, buffer);
      EXPECT_EQ(got.lines, expected.lines) << name << " buffer " << buffer;
      EXPECT_EQ(got_header.base_time_ns, header.base_time_ns) << name << " buffer " << buffer;
      EXPECT_EQ(bytes, std::string(kTrace).size()) << name << " buffer " << buffer;
    }
  }
}

// Where a parse error is reported must not depend on where the buffer was cut.
TEST(KinetoBuffer, ErrorOffsetDoesNotDependOnTheBuffer) {
  TemporaryFolder folder;
  const std::string broken = std::string(kTrace).substr(0, 200) + "@" + std::string(kTrace).substr(200);
  testing::write_file(folder.file("broken.json"), broken);
  std::string expected;
  try {
    Recorder ignored;
    importers::read_kineto(folder.file("broken.json"), ignored);
    FAIL() << "an invalid file was read";
  } catch (const TraceError& error) {
    expected = error.problem();
  }
  EXPECT_NE(expected.find("is not valid JSON"), std::string::npos) << expected;
  for (std::size_t buffer = 1; buffer <= 40; ++buffer) {
    Recorder ignored;
    try {
      importers::read_kineto(folder.file("broken.json"), ignored, nullptr, buffer);
      ADD_FAILURE() << "buffer " << buffer << ": an invalid file was read";
    } catch (const TraceError& error) {
      EXPECT_EQ(error.problem(), expected) << "buffer " << buffer;
    }
  }
}

}  // namespace
}  // namespace gpuprof
