// Large blocks kept for the next large request (large_blocks.hpp): a released
// large block is handed out again, resized where it does not fit, and what is
// kept stays within its bounds; small blocks are never kept.
#include <gtest/gtest.h>

#include <malloc.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "gpuprof/trace/large_blocks.hpp"

namespace gpuprof::trace {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kLarge = kLargeBlockBytes;

// Takes back whatever earlier tests left kept, so each test starts with nothing kept.
void drain() {
  std::vector<void*> taken;
  while (large_blocks_kept_bytes() > 0) taken.push_back(allocate_block(kLargeBlockBytes));
  for (void* block : taken) std::free(block);
}

TEST(LargeBlocks, AReleasedLargeBlockServesTheNextLargeRequest) {
  drain();
  void* first = allocate_block(kLarge + 4 * kMiB);
  ASSERT_NE(first, nullptr);
  std::memset(first, 1, kLarge + 4 * kMiB);
  release_block(first);
  EXPECT_GE(large_blocks_kept_bytes(), kLarge + 4 * kMiB);
  void* second = allocate_block(kLarge);
  EXPECT_EQ(second, first);
  EXPECT_EQ(large_blocks_kept_bytes(), 0U);
  release_block(second);
  drain();
}

TEST(LargeBlocks, SmallBlocksAreFreedNotKept) {
  drain();
  release_block(allocate_block(kLargeBlockBytes / 2));
  EXPECT_EQ(large_blocks_kept_bytes(), 0U);
  release_block(nullptr);
  EXPECT_EQ(large_blocks_kept_bytes(), 0U);
}

TEST(LargeBlocks, AKeptBlockTooSmallOrFarTooLargeIsResizedToTheRequest) {
  drain();
  void* small = allocate_block(kLarge);
  std::memset(small, 7, kLarge);
  release_block(small);
  auto* grown = static_cast<unsigned char*>(allocate_block(3 * kLarge));
  ASSERT_NE(grown, nullptr);
  EXPECT_GE(malloc_usable_size(grown), 3 * kLarge);
  std::memset(grown, 2, 3 * kLarge);  // all of it is the caller's
  release_block(grown);
  void* shrunk = allocate_block(kLarge);
  ASSERT_NE(shrunk, nullptr);
  const auto usable = malloc_usable_size(shrunk);
  EXPECT_GE(usable, kLarge);
  EXPECT_LT(usable, 3 * kLarge);  // a block three times the request does not stay that large
  release_block(shrunk);
  drain();
}

TEST(LargeBlocks, WhatIsKeptStaysWithinItsBoundsOldestGoingFirst) {
  drain();
  std::vector<void*> blocks;
  for (std::size_t i = 0; i < kLargeBlocksKept + 3; ++i) blocks.push_back(allocate_block(kLargeBlocksKeptBytes / 3));
  for (void* block : blocks) {
    release_block(block);
    EXPECT_LE(large_blocks_kept_bytes(), kLargeBlocksKeptBytes);
  }
  EXPECT_GT(large_blocks_kept_bytes(), 0U);
  // A block larger than everything that may be kept is freed at once.
  void* huge = allocate_block(kLargeBlocksKeptBytes + kMiB);
  const auto before = large_blocks_kept_bytes();
  release_block(huge);
  EXPECT_LE(large_blocks_kept_bytes(), before);
  drain();
}

}  // namespace
}  // namespace gpuprof::trace
