#include "parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace gpuprof::job {

void parallel_for(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& task) {
  std::vector<std::exception_ptr> errors(count);
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t index = next++; index < count; index = next++) {
      try {
        task(index);
      } catch (...) {
        errors[index] = std::current_exception();
      }
    }
  };
  const auto extra = std::min<std::size_t>(std::max(threads, 1U), count) ;
  {
    std::vector<std::jthread> pool;
    for (std::size_t i = 1; i < extra; ++i) pool.emplace_back(worker);
    worker();
  }
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
}

}  // namespace gpuprof::job
