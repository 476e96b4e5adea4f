// The progress renderer on a fake terminal: a temporary file it is told is a
// terminal, and a clock the test moves by hand.

#include "progress_line.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace gpuprof::cli {
namespace {

constexpr const char* kRewind = "\r\033[K";

class FakeTerminal : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_NE(file_, nullptr); }
  void TearDown() override {
    if (file_ != nullptr) std::fclose(file_);
  }
  std::string written() {
    std::fflush(file_);
    std::string text;
    std::rewind(file_);
    char buffer[4096];
    for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, file_)) > 0;) text.append(buffer, got);
    std::fseek(file_, 0, SEEK_END);
    return text;
  }
  static std::size_t drawings(const std::string& text) {
    std::size_t count = 0;
    for (std::size_t at = text.find(kRewind); at != std::string::npos; at = text.find(kRewind, at + 1)) ++count;
    return count;
  }
  ProgressLine line(bool terminal = true, bool quiet = false, int columns = 80) {
    return ProgressLine(file_, "export", quiet, {terminal, columns}, [this] { return now_; });
  }
  std::FILE* file_ = std::tmpfile();
  double now_ = 100.0;
};

TEST_F(FakeTerminal, DrawsAtMostTenTimesASecond) {
  auto progress = line();
  // Sixteen updates over one second, one every 62.5 ms (exact in binary): every second one is drawn.
  for (int i = 0; i < 16; ++i, now_ += 0.0625) progress.update({"write", i * 1000, 16000, "events", ""});
  const auto text = written();
  EXPECT_EQ(drawings(text), 8u) << text;
  EXPECT_EQ(text.find('\n'), std::string::npos) << "a progress line is rewritten, never ended: " << text;
}

TEST_F(FakeTerminal, ShowsStagePercentageCountAndRate) {
  auto progress = line();
  progress.update({"write", 0, 5'000'000, "events", ""});
  now_ += 2.0;
  progress.update({"write", 2'150'000, 5'000'000, "events", ""});
  const auto text = written();
  const auto last = text.substr(text.rfind(kRewind) + 4);
  EXPECT_EQ(last, "export: write 43 % 2.1 M events, 1.1 M events/s, about 3s left") << text;
}

TEST_F(FakeTerminal, ByteStagesShowBytesAndUnknownTotalsNoPercentage) {
  auto progress = line();
  progress.update({"import", 0, 0, "bytes", ""});
  now_ += 1.0;
  progress.update({"import", 3 * 1024 * 1024, 0, "bytes", "rank0.json"});
  const auto text = written();
  const auto last = text.substr(text.rfind(kRewind) + 4);
  EXPECT_EQ(last, "export: import 3.00 MiB, 3.00 MiB/s (rank0.json)") << text;
}

TEST_F(FakeTerminal, ANewStageCountsItsRateFromItsOwnStart) {
  auto progress = line();
  progress.update({"load", 0, 100, "rows", ""});
  now_ += 10.0;
  progress.update({"write", 0, 100, "events", ""});
  now_ += 1.0;
  progress.update({"write", 50, 100, "events", ""});
  const auto text = written();
  EXPECT_NE(text.find("export: write 50 % 50 events, 50 events/s"), std::string::npos) << text;
}

TEST_F(FakeTerminal, TheNextCounterOfTheSameStageCountsItsRateAfresh) {
  auto progress = line();
  progress.update({"load", 0, 100, "rows", "rank 0"});
  now_ += 10.0;
  progress.update({"load", 100, 100, "rows", "rank 0"});
  progress.update({"load", 0, 100, "rows", "rank 1"});
  now_ += 1.0;
  progress.update({"load", 40, 100, "rows", "rank 1"});
  const auto text = written();
  EXPECT_NE(text.find("export: load 40 % 40 rows, 40 rows/s, about 2s left (rank 1)"), std::string::npos) << text;
}

TEST_F(FakeTerminal, ClearsTheLineAtTheEnd) {
  {
    auto progress = line();
    progress.update({"load", 10, 100, "rows", ""});
    progress.clear();
    EXPECT_TRUE(written().ends_with(kRewind));
    progress.update({"load", 20, 100, "rows", ""});
    now_ += 1;
    progress.update({"load", 30, 100, "rows", ""});
  }
  // The destructor clears what the last update drew: an error printed next starts on a clean line.
  const auto text = written();
  EXPECT_TRUE(text.ends_with(std::string("rows/s, about 2s left") + kRewind)) << text;
}

TEST_F(FakeTerminal, NothingWhenNotATerminalOrQuiet) {
  for (const auto& [terminal, quiet] : {std::pair{false, false}, std::pair{true, true}, std::pair{false, true}}) {
    auto progress = line(terminal, quiet);
    EXPECT_FALSE(progress.active());
    EXPECT_FALSE(progress.callback()) << "the work must not even count for nobody";
    for (int i = 0; i < 5; ++i, now_ += 1) progress.update({"load", i, 5, "rows", "x"});
    progress.clear();
  }
  EXPECT_EQ(written(), "");
}

TEST_F(FakeTerminal, NotesStayAndAreWrittenEvenOffATerminal) {
  {
    auto progress = line(false);
    progress.note("gpuprof: run 3 failed: exit 2");
  }
  EXPECT_EQ(written(), "gpuprof: run 3 failed: exit 2\n");
  auto progress = line();
  progress.update({"run", 1, 4, "runs", "[2/4] b64"});
  progress.note("gpuprof: b64 failed: exit 1");
  const auto text = written();
  EXPECT_TRUE(text.ends_with(std::string(kRewind) + "gpuprof: b64 failed: exit 1\n")) << text;
}

TEST_F(FakeTerminal, FitsTheTerminalAndKeepsControlCharactersOut) {
  auto progress = line(true, false, 40);
  progress.update({"load", 1, 2, "rows", "evil\033]0;title\007name-with-a-very-long-tail-\xc3\xa9\xc3\xa9\xc3\xa9"});
  const auto text = written();
  const auto last = text.substr(text.rfind(kRewind) + 4);
  EXPECT_EQ(last.find('\033'), std::string::npos) << last;
  EXPECT_EQ(last.find('\007'), std::string::npos) << last;
  EXPECT_LE(last.size(), 39u + 6u) << last;  // 39 characters; a cut never splits a UTF-8 character
  EXPECT_NE(static_cast<unsigned char>(last.back()) & 0xC0, 0xC0) << last;
}

TEST(ProgressFormats, CountsAndDurations) {
  EXPECT_EQ(format_count(950), "950");
  EXPECT_EQ(format_count(12'345), "12.3 k");
  EXPECT_EQ(format_count(2'100'000), "2.1 M");
  EXPECT_EQ(format_duration(45), "45s");
  EXPECT_EQ(format_duration(185), "3m 05s");
  EXPECT_EQ(format_duration(3720), "1h 02m");
}

}  // namespace
}  // namespace gpuprof::cli
