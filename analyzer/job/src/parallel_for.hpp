#pragma once

#include <cstddef>
#include <functional>

namespace gpuprof::job {

// Calls `task(i)` for i in [0, count) on up to `threads` threads. Every task
// runs even when one throws; the exception of the lowest index is rethrown,
// so errors do not depend on scheduling.
void parallel_for(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& task);

}  // namespace gpuprof::job
