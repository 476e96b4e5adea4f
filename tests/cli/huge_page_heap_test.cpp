// Which commands start again with glibc's huge-page heap (cli/huge_page_heap.hpp).
#include <gtest/gtest.h>

#include "huge_page_heap.hpp"

namespace gpuprof::cli {
namespace {

constexpr const char* kMadvise = "always [madvise] never\n";

TEST(HugePageHeap, CommandsThatOnlyReadTracesRestartWithIt) {
  for (const char* command : {"report", "compare", "export", "import", "info", "predict"}) {
    EXPECT_TRUE(wants_huge_page_heap(command, nullptr, nullptr, kMadvise)) << command;
  }
}

TEST(HugePageHeap, CommandsThatStartProgramsNeverPassItOn) {
  for (const char* command : {"record", "sweep", "study", "gui", "synth", "--help", ""}) {
    EXPECT_FALSE(wants_huge_page_heap(command, nullptr, nullptr, kMadvise)) << command;
  }
}

TEST(HugePageHeap, TheUsersOwnTunablesTheRestartedProgramAndKernelsWithoutHugePagesAreLeftAlone) {
  EXPECT_FALSE(wants_huge_page_heap("report", "glibc.malloc.arena_max=1", nullptr, kMadvise));
  EXPECT_FALSE(wants_huge_page_heap("report", nullptr, "1", kMadvise));
  EXPECT_FALSE(wants_huge_page_heap("report", nullptr, nullptr, "always madvise [never]\n"));
  EXPECT_FALSE(wants_huge_page_heap("report", nullptr, nullptr, ""));
  EXPECT_TRUE(wants_huge_page_heap("report", nullptr, nullptr, "[always] madvise never\n"));
}

}  // namespace
}  // namespace gpuprof::cli
