#include "gpuprof/trace/large_blocks.hpp"

#include <malloc.h>

#include <array>
#include <cstdlib>
#include <mutex>

namespace gpuprof::trace {
namespace {

struct Kept {
  void* block = nullptr;
  std::size_t bytes = 0;  // malloc_usable_size
};

// Large requests are few (a few hundred in a report): one lock for all threads costs nothing.
constinit std::mutex kept_mutex;
std::array<Kept, kLargeBlocksKept> kept{};  // oldest first
std::size_t kept_count = 0, kept_bytes = 0;

Kept take_at(std::size_t index) {
  const Kept taken = kept[index];
  for (std::size_t i = index; i + 1 < kept_count; ++i) kept[i] = kept[i + 1];
  --kept_count, kept_bytes -= taken.bytes;
  return taken;
}

// The kept block that fits `bytes` best: the smallest large enough, else the largest (grown to fit).
Kept take_for(std::size_t bytes) {
  const std::scoped_lock lock(kept_mutex);
  if (kept_count == 0) return {};
  std::size_t best = 0;
  for (std::size_t i = 1; i < kept_count; ++i) {
    const bool fits = kept[i].bytes >= bytes, best_fits = kept[best].bytes >= bytes;
    if (fits ? !best_fits || kept[i].bytes < kept[best].bytes : !best_fits && kept[i].bytes > kept[best].bytes) {
      best = i;
    }
  }
  return take_at(best);
}

}  // namespace

void* allocate_block(std::size_t bytes) {
  if (bytes >= kLargeBlockBytes) {
    if (const auto reused = take_for(bytes); reused.block != nullptr) {
      // Used as it is when it wastes at most a third of itself; else resized, its pages moved, not copied.
      if (reused.bytes >= bytes && reused.bytes - bytes <= reused.bytes / 3) return reused.block;
      if (void* resized = std::realloc(reused.block, bytes)) return resized;
      std::free(reused.block);
    }
  }
  return std::malloc(bytes == 0 ? 1 : bytes);
}

void release_block(void* block) {
  if (block == nullptr) return;
  const auto bytes = malloc_usable_size(block);
  if (bytes < kLargeBlockBytes || bytes > kLargeBlocksKeptBytes) return std::free(block);
  std::array<void*, kLargeBlocksKept> evicted{};
  std::size_t evicted_count = 0;
  {
    const std::scoped_lock lock(kept_mutex);
    while (kept_count == kLargeBlocksKept || kept_bytes + bytes > kLargeBlocksKeptBytes) {
      evicted[evicted_count++] = take_at(0).block;
    }
    kept[kept_count++] = {block, bytes};
    kept_bytes += bytes;
  }
  for (std::size_t i = 0; i < evicted_count; ++i) std::free(evicted[i]);
}

std::size_t large_blocks_kept_bytes() {
  const std::scoped_lock lock(kept_mutex);
  return kept_bytes;
}

}  // namespace gpuprof::trace
