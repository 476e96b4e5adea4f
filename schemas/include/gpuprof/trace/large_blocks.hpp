#pragma once

// Large blocks kept for the next large request instead of being given back to
// the kernel at once.
//
// glibc serves every block above its mmap threshold (32 MiB at most) with a
// mapping of its own and unmaps it when freed, so every large array a report
// makes is memory the kernel zeroes again: a 100 M-event report faulted in
// 8.3 GB for a 4.7 GB peak, and zeroing those pages was a third of its CPU time
// (docs/performance.md). The loader's scratch columns, the analyses' grouped
// durations, sort buffers and per-device arrays come one after another, so a
// freed block kept for the next request is memory already in place. A kept
// block is resized to the request with realloc, which moves the block's pages
// (mremap) rather than copying them: only the part that grows is new memory.
//
// The gpuprof executable routes operator new and delete through these two
// functions (cli/large_block_operators.cpp); other programs use the C++
// runtime's as they are. Memory from allocate_block is returned by
// release_block and by nothing else.

#include <cstddef>

namespace gpuprof::trace {

// Blocks from this size up are kept when released. Every block above glibc's largest mmap threshold
// (32 MiB) is a mapping of its own; from 64 MiB only, so that a 10 M-event report (whose largest temporaries
// are 5 M values, 40 MB) keeps none: a block kept at 32 MiB added 40 MiB to its peak for 12 % fewer faults.
inline constexpr std::size_t kLargeBlockBytes = std::size_t{64} << 20;
// At most this many bytes, in at most kLargeBlocksKept blocks, are kept at once (the oldest go first):
// memory kept and not yet asked for again adds to the peak.
inline constexpr std::size_t kLargeBlocksKeptBytes = std::size_t{1} << 30;
inline constexpr std::size_t kLargeBlocksKept = 4;

// malloc(bytes), or a kept block resized to `bytes` (contents unspecified, as malloc's).
void* allocate_block(std::size_t bytes);
// free(block), or keeps it for a later allocate_block when it is large. Null is ignored.
void release_block(void* block);
// What is kept now (for tests and diagnostics).
std::size_t large_blocks_kept_bytes();

}  // namespace gpuprof::trace
