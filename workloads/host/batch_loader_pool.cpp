#include "batch_loader_pool.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include <fmt/format.h>

#include "sequence_dataset.hpp"

namespace gpuprof::workloads {
namespace {

// Busy work rather than sleep: a slow loader keeps a CPU core busy, and a sleeping
// thread would look different in a profile.
void imitate_loader_work(int microseconds) {
  if (microseconds <= 0) return;
  const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(microseconds);
  volatile std::uint64_t sink = 0;
  while (std::chrono::steady_clock::now() < end) sink = sink + 1;
}

}  // namespace

BatchLoaderPool::BatchLoaderPool(const SampleSource& source, const BatchSchedule& schedule,
                                 std::vector<HostBatchView> slots, int threads, int inline_threads)
    : source_(source), schedule_(schedule), slots_(std::move(slots)), inline_threads_(std::max(inline_threads, 1)),
      filled_(slots_.size(), -1) {
  if (slots_.empty()) throw std::invalid_argument("BatchLoaderPool needs at least one slot");
  if (schedule_.steps_per_epoch < 1) throw std::invalid_argument("BatchLoaderPool needs a step per epoch");
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

BatchLoaderPool::~BatchLoaderPool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  threads_.clear();  // joins; a thread inside assemble() finishes its batch first
}

bool BatchLoaderPool::may_claim() const {
  return next_claim_ < schedule_.total_steps && next_claim_ < released_ + slots();
}

void BatchLoaderPool::work() {
  for (;;) {
    int step = 0;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] {
        return stopping_ || error_ || next_claim_ >= schedule_.total_steps || may_claim();
      });
      if (stopping_ || error_ || !may_claim()) return;
      step = next_claim_++;
    }
    try {
      assemble(step, 1);
    } catch (...) {
      {
        const std::lock_guard lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
      changed_.notify_all();
      return;
    }
    {
      const std::lock_guard lock(mutex_);
      filled_[static_cast<std::size_t>(step % slots())] = step;
    }
    changed_.notify_all();
  }
}

std::shared_ptr<const std::vector<std::int32_t>> BatchLoaderPool::order_for(int epoch) {
  {
    const std::lock_guard lock(mutex_);
    if (order_ && order_epoch_ == epoch) return order_;
  }
  auto order = std::make_shared<const std::vector<std::int32_t>>(
      epoch_order(source_.samples(), schedule_.seed, epoch));
  const std::lock_guard lock(mutex_);
  if (epoch > order_epoch_) {
    order_ = order;
    order_epoch_ = epoch;
  }
  return order;
}

void BatchLoaderPool::assemble(int step, int threads) {
  const int epoch = step / schedule_.steps_per_epoch;
  const auto order = order_for(epoch);
  const int first = (step % schedule_.steps_per_epoch) * schedule_.global_batch +
                    schedule_.replica * schedule_.per_gpu_batch;
  if (first < 0 || static_cast<std::size_t>(first) + schedule_.per_gpu_batch > order->size()) {
    throw std::out_of_range(fmt::format("batch of step {} reads past the epoch's {} samples", step, order->size()));
  }
  const HostBatchView& slot = slots_[static_cast<std::size_t>(step % slots())];
  gather_samples(source_, *order, first, schedule_.per_gpu_batch, slot.inputs, slot.targets, slot.ints, threads);
  imitate_loader_work(schedule_.loader_us);
}

const HostBatchView& BatchLoaderPool::wait(int step) {
  std::unique_lock lock(mutex_);
  if (step != next_wait_ || step >= schedule_.total_steps) {
    throw std::logic_error(fmt::format("BatchLoaderPool: batch {} asked, {} expected", step, next_wait_));
  }
  if (step >= released_ + slots()) {
    throw std::logic_error(fmt::format("BatchLoaderPool: batch {} asked before batch {} was released", step,
                                       step - slots()));
  }
  const auto slot = static_cast<std::size_t>(step % slots());
  if (threads_.empty()) {
    lock.unlock();
    assemble(step, inline_threads_);
    lock.lock();
  } else {
    changed_.wait(lock, [&] { return error_ || filled_[slot] == step; });
    if (filled_[slot] != step) std::rethrow_exception(error_);
  }
  ++next_wait_;
  return slots_[slot];
}

void BatchLoaderPool::release(int step) {
  {
    const std::lock_guard lock(mutex_);
    if (step != released_ || step >= next_wait_) {
      throw std::logic_error(fmt::format("BatchLoaderPool: batch {} released, {} expected", step, released_));
    }
    ++released_;
  }
  changed_.notify_all();
}

}  // namespace gpuprof::workloads
