// The gpuprof executable's operator new and delete: every allocation goes to
// malloc as the C++ runtime's would, except that large blocks freed are kept
// for the next large request (gpuprof/trace/large_blocks.hpp): a 100 M-event
// report's successive large arrays then reuse memory already in place instead
// of each being zeroed anew by the kernel. The aligned forms stay the runtime's.

#include <cstddef>
#include <cstdlib>
#include <new>

#include "gpuprof/trace/large_blocks.hpp"

namespace {

void* allocate_or_throw(std::size_t bytes) {
  for (;;) {
    if (void* block = gpuprof::trace::allocate_block(bytes)) return block;
    const auto handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* allocate_or_null(std::size_t bytes) noexcept {
  try {
    return allocate_or_throw(bytes);
  } catch (...) {
    return nullptr;
  }
}

// Sized deletes of small blocks skip the kept-block check (the usual case: std::allocator passes the size).
void release_sized(void* block, std::size_t bytes) noexcept {
  if (bytes < gpuprof::trace::kLargeBlockBytes) return std::free(block);
  gpuprof::trace::release_block(block);
}

}  // namespace

void* operator new(std::size_t bytes) { return allocate_or_throw(bytes); }
void* operator new[](std::size_t bytes) { return allocate_or_throw(bytes); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept { return allocate_or_null(bytes); }
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept { return allocate_or_null(bytes); }
void operator delete(void* block) noexcept { gpuprof::trace::release_block(block); }
void operator delete[](void* block) noexcept { gpuprof::trace::release_block(block); }
void operator delete(void* block, std::size_t bytes) noexcept { release_sized(block, bytes); }
void operator delete[](void* block, std::size_t bytes) noexcept { release_sized(block, bytes); }
void operator delete(void* block, const std::nothrow_t&) noexcept { gpuprof::trace::release_block(block); }
void operator delete[](void* block, const std::nothrow_t&) noexcept { gpuprof::trace::release_block(block); }
